package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// replTestSessionEnv makes the test binary act as a session that dies (exit 2, as the
// Go runtime's fatal errors do) while a marker file is absent, creating it, and then
// as one the user leaves normally.
const replTestSessionEnv = "GEXPH_TEST_REPL_SESSION"

func TestREPLSupervisorStartsAFreshSessionAfterOneDies(t *testing.T) {
	if marker := os.Getenv(replTestSessionEnv); marker != "" {
		if _, err := os.Stat(marker); err != nil {
			os.WriteFile(marker, nil, 0o644)
			os.Stderr.WriteString("fatal error: runtime: out of memory\n")
			os.Exit(2)
		}
		os.Exit(0)
	}
	marker := filepath.Join(t.TempDir(), "died-once")
	sessions := 0
	var stderr bytes.Buffer
	err := superviseREPL(func() *exec.Cmd {
		sessions++
		cmd := exec.Command(os.Args[0], "-test.run", "^TestREPLSupervisorStartsAFreshSessionAfterOneDies$")
		cmd.Env = append(os.Environ(), replTestSessionEnv+"="+marker)
		return cmd
	}, &stderr)
	if err != nil {
		t.Fatalf("supervisor: %v", err)
	}
	if sessions != 2 {
		t.Errorf("%d sessions, want 2 (one that died, one left normally)", sessions)
	}
	if msg := stderr.String(); !strings.Contains(msg, "session died") || !strings.Contains(msg, "new session starts") {
		t.Errorf("stderr %q: want the death reported and a new session announced", msg)
	}
}

// A session that cannot start ends the supervision instead of looping.
func TestREPLSupervisorGivesUpOnSessionsThatDieAtStart(t *testing.T) {
	sessions := 0
	err := superviseREPL(func() *exec.Cmd {
		sessions++
		return exec.Command("sh", "-c", "exit 3")
	}, new(bytes.Buffer))
	if err == nil || !strings.Contains(err.Error(), "three times") || sessions != 3 {
		t.Errorf("error %v after %d sessions, want giving up after 3", err, sessions)
	}
}

// Under an address-space limit well below this machine's memory (ulimit -v 4 GB) the
// command starts and computes: help, and a training step of a small model, whose start
// reserves heap headroom sized to the limit instead of to the memory.
func TestCommandsRunUnderAnAddressSpaceLimit(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	for _, args := range [][]string{
		{"-h"},
		{"train", "-h"},
		{"bench", "-case", "model", "-preset", "demo", "-set", `{"layers":1,"hidden_dim":8,"heads":2}`, "-batch", "2", "-steps", "1"},
	} {
		cmd := exec.Command("sh", append([]string{"-c", `ulimit -v 4000000 && exec "$0" "$@"`, os.Args[0]}, args...)...)
		cmd.Env = append(os.Environ(), runAsMainEnv+"=1")
		out, err := cmd.CombinedOutput()
		if err != nil || strings.Contains(string(out), "fatal error") {
			t.Errorf("gexph %s under ulimit -v 4000000: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}

// A script whose goroutine panics — which no interpreter can recover, since yaegi runs
// goroutines natively — makes `gexph repl` report the panic as an error and exit 1,
// without the runtime's dump of goroutine stacks; a script's own error is reported
// once, and a script that runs well exits 0.
func TestREPLScriptGoroutinePanicIsReportedWithoutAStackDump(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	panics := write("panics.go", "package main\n\nimport \"time\"\n\nfunc main() {\n\tgo func() { panic(\"boom in a goroutine\") }()\n\ttime.Sleep(10 * time.Second)\n\tprintln(\"not reached\")\n}\n")
	code, _, errOut := runCLI(t, "repl", panics)
	if code != 1 || !strings.Contains(errOut, "boom in a goroutine") || !strings.Contains(errOut, "gexph repl: repl: the script ended with") ||
		strings.Contains(errOut, "[running]") || strings.Contains(errOut, "created by") || strings.Contains(errOut, "not reached") {
		t.Errorf("goroutine panic: exit %d, stderr:\n%s\nwant exit 1, the panic reported, no goroutine stacks", code, errOut)
	}
	bad := write("bad.go", "package main\n\nfunc main() { undefinedThing() }\n")
	code, _, errOut = runCLI(t, "repl", bad)
	if code != 1 || !strings.Contains(errOut, "undefinedThing") || strings.Contains(errOut, "ended with") {
		t.Errorf("compile error: exit %d, stderr:\n%s\nwant exit 1 and the script's own error only", code, errOut)
	}
	good := write("good.go", "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(6 * 7) }\n")
	if code, out, errOut := runCLI(t, "repl", good); code != 0 || strings.TrimSpace(out) != "42" {
		t.Errorf("good script: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if _, err := os.Stat("/dev/zero"); err == nil {
		code, _, errOut = runCLI(t, "repl", "/dev/zero")
		if code != 1 || !strings.Contains(errOut, "/dev/zero") || !strings.Contains(errOut, "16777216 bytes a script may have") {
			t.Errorf("/dev/zero as a script: exit %d, stderr %q; want a refusal naming the bound", code, errOut)
		}
	}
}

// A script's worker that dies without a message of its own (killed by a signal) or
// exits with its own code is reported as such, not as a success.
func TestREPLScriptWorkerReportsSignalsAndExitCodes(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	killed := exec.Command("sh", "-c", "kill -KILL $$")
	if err := runScriptWorker(killed, &crashWatcher{w: new(bytes.Buffer)}); err == nil || !strings.Contains(err.Error(), "signal") {
		t.Errorf("killed worker: %v, want an error naming the signal", err)
	}
	var exit exitError
	if err := runScriptWorker(exec.Command("sh", "-c", "exit 3"), &crashWatcher{w: new(bytes.Buffer)}); !errors.As(err, &exit) || exit.code != 3 {
		t.Errorf("worker exiting 3: %v, want exitError 3", err)
	}
	var stderr bytes.Buffer
	watch := &crashWatcher{w: &stderr}
	crash := exec.Command("sh", "-c", `printf 'panic: boom\n' >&2; exit 2`)
	crash.Stderr = watch
	if err := runScriptWorker(crash, watch); err == nil || !strings.Contains(err.Error(), `"panic: boom"`) || stderr.String() != "panic: boom\n" {
		t.Errorf("crashed worker: %v (stderr %q), want the panic named and its message passed through", err, stderr.String())
	}
}
