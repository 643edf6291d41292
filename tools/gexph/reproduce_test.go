package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/gexph/gexph/gexph"
	"github.com/gexph/gexph/internal/shareddata"
	"github.com/gexph/gexph/internal/sysinfo"
	"github.com/gexph/gexph/suite"
)

func TestReproduceBadFlags(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want []string // substrings of stderr
	}{
		{[]string{"reproduce", "-suite", "nope"}, []string{`"nope"`, `"transductive"`, `"search"`, `"inductive-budget"`, `"inductive"`}},
		{[]string{"reproduce", "-suite", "transductive", "-runs", "^nothing$"}, []string{"matches none"}},
		{[]string{"reproduce", "-suite", "search", "-runs", "^nothing$"}, []string{`"^nothing$"`, "matches no grid run"}},
		{[]string{"reproduce", "-suite", "search", "-seeds", "0"}, []string{"seeds = 0"}},
		{[]string{"reproduce", "-suite", "scaling", "-settings", `{"layerz":2}`}, []string{"layerz"}},
		{[]string{"reproduce", "-report"}, []string{"no suite results"}},
		{[]string{"reproduce"}, []string{"-suite is required", "transductive", "inductive-budget"}},
		{[]string{"reproduce", "-suite", "transductive", "-seeds", "0"}, []string{"seeds = 0"}},
		{[]string{"reproduce", "-suite", "transductive", "extra"}, []string{`unexpected argument "extra"`}},
		{[]string{"reproduce", "-nope"}, []string{"-nope"}},
		{[]string{"reproduce", "-suite", "plus", "-runs", "^photo_", "-data-dir", dir},
			[]string{"photo: no data on this machine", "none of its data sets is on this machine (photo)"}},
	} {
		out := filepath.Join(dir, "out")
		code, _, errOut := runCLI(t, append(c.args, "-out", out)...)
		if code == 0 {
			t.Errorf("%v: exit 0, want an error", c.args)
		}
		for _, w := range c.want {
			if !strings.Contains(errOut, w) {
				t.Errorf("%v: stderr %q lacks %q", c.args, errOut, w)
			}
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%v: created %s before failing", c.args, out)
		}
	}
}

func TestCommandLineQuotesArguments(t *testing.T) {
	got := commandLine("gexph reproduce", []string{"-suite", "transductive", "-out", "my runs", "-results", ""})
	want := `gexph reproduce -suite transductive -out "my runs" -results ""`
	if got != want {
		t.Errorf("commandLine = %s, want %s", got, want)
	}
}

// runAsMainEnv makes the test binary behave as the gexph command (see TestMain), so
// that commands which re-execute themselves (bench -table, reproduce -suite scaling)
// work under `go test`; so does replWorkerEnv, which `gexph repl` sets for its worker.
const runAsMainEnv = "GEXPH_TEST_RUN_AS_MAIN"

func TestMain(m *testing.M) {
	sysinfo.ReserveHeapHeadroom() // while the heap is fresh: see gexph.SetupRuntime
	if os.Getenv(runAsMainEnv) == "1" || os.Getenv(replWorkerEnv) != "" {
		os.Exit(runMain(os.Args[1:]))
	}
	if dir := os.Getenv(holdLockEnv); dir != "" {
		os.Exit(holdLock(dir))
	}
	os.Exit(m.Run())
}

func TestReproduceScalingEndToEnd(t *testing.T) {
	t.Setenv(runAsMainEnv, "1")
	root := t.TempDir()
	settings := `{"layers":1,"hidden":8}`
	code, out, errOut := runCLI(t, "reproduce", "-suite", "scaling", "-max-nodes", "1000", "-settings", settings,
		"-out", root, "-quiet", "-json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	requireKeys(t, decodeJSON(t, out), "suite", "out", "runs", "report")
	recs, err := suite.ReadScalingCSV(filepath.Join(root, "scaling", "scaling.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 {
		t.Fatalf("%d points, want exphormer and full at 1000 nodes", len(recs))
	}
	for _, r := range recs {
		if r.OutOfMemory || r.Skipped || !(r.EpochSeconds > 0) || !(r.PeakRSSMB > 0) || r.Settings.Hidden != 8 {
			t.Errorf("point %+v", r)
		}
	}
	meta, err := suite.ReadSuiteMeta(filepath.Join(root, "scaling"))
	if err != nil || !strings.Contains(meta.Command, "-suite scaling") {
		t.Errorf("meta %+v, %v", meta, err)
	}
	report, err := os.ReadFile(filepath.Join(root, "RESULTS.md"))
	if err != nil || !strings.Contains(string(report), "## Scaling") {
		t.Errorf("report: %v\n%s", err, report)
	}
	// Under a 20 MiB limit every point is stopped and recorded as out of memory; full
	// attention is not run past its first failure.
	code, _, errOut = runCLI(t, "reproduce", "-suite", "scaling", "-max-nodes", "2000", "-settings", `{"layers":1,"hidden":16}`,
		"-mem-limit-gb", "0.02", "-out", root, "-quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	recs, err = suite.ReadScalingCSV(filepath.Join(root, "scaling", "scaling.csv"))
	if err != nil {
		t.Fatal(err)
	}
	status := map[string]string{}
	for _, r := range recs {
		switch {
		case r.Skipped:
			status[r.Name()] = "skipped"
		case r.OutOfMemory:
			status[r.Name()] = "oom"
		default:
			status[r.Name()] = "ok"
		}
	}
	want := map[string]string{"exphormer_1000": "oom", "full_1000": "oom", "exphormer_2000": "skipped", "full_2000": "skipped"}
	for k, v := range want {
		if status[k] != v {
			t.Errorf("%s: %s, want %s (all: %v)", k, status[k], v, status)
		}
	}
}

func TestRunWithMemoryLimit(t *testing.T) {
	ctx := context.Background()
	// tail buffers /dev/zero, which has no newline, without bound.
	r, err := runWithMemoryLimit(ctx, "/bin/sh", []string{"-c", "exec tail /dev/zero"}, nil, 64, io.Discard)
	if err != nil || !r.OverLimit || r.PeakRSSMB <= 64 {
		t.Errorf("growing child: %+v, %v; want stopped past 64 MiB", r, err)
	}
	r, err = runWithMemoryLimit(ctx, "/bin/sh", []string{"-c", "echo $GEXPH_X"}, []string{"GEXPH_X=hi"}, 64, io.Discard)
	if err != nil || r.OverLimit || string(r.Stdout) != "hi\n" {
		t.Errorf("small child: %+v, %v", r, err)
	}
	if _, err := runWithMemoryLimit(ctx, "/bin/sh", []string{"-c", "exit 3"}, nil, 64, io.Discard); err == nil {
		t.Error("failing child: no error")
	}
}

func TestDropFlag(t *testing.T) {
	got := dropFlag([]string{"-suite", "transductive", "-runs", "^cora_", "--runs=x", "-out", "d"}, "runs")
	want := []string{"-suite", "transductive", "-out", "d"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("dropFlag = %v, want %v", got, want)
	}
}

// SIGTERM (a scheduler's, or timeout's) ends a suite as SIGINT does: the running run
// stops after its last complete epoch with a checkpoint that holds it, and the error
// names the run and the command that continues (the runs' resumption from their
// checkpoints is RunSuite's and Train's, tested there).
func TestReproduceSIGTERMStopsAtAnEpochAndSaysHowToContinue(t *testing.T) {
	if testing.Short() {
		t.Skip("trains Cora's model in a child process")
	}
	cora := shareddata.Path(t, "gnn-benchmark/cora.npz")
	out := t.TempDir()
	args := []string{"reproduce", "-suite", "transductive", "-runs", "^cora_exphormer_s1$", "-seeds", "1",
		"-data-dir", filepath.Dir(filepath.Dir(cora)), "-out", out}
	msg, err := runSignalledAfter(t, args, "epoch   2/", syscall.SIGTERM)
	if err == nil {
		t.Fatalf("a suite sent SIGTERM exited 0:\n%s", msg)
	}
	ckpt := filepath.Join(out, "transductive", "ckpt", "cora_exphormer_s1")
	for _, want := range []string{`suite run "cora_exphormer_s1"`, "interrupted in epoch", filepath.Join(ckpt, gexph.LastCheckpointFile) + " holds epoch",
		"the same command continues the suite from there: gexph reproduce -suite transductive"} {
		if !strings.Contains(msg, want) {
			t.Errorf("SIGTERM: stderr lacks %q:\n%s", want, msg)
		}
	}
	if err := gexph.VerifyRunDir(ckpt); err != nil {
		t.Error(err)
	}
	if info, err := gexph.ReadCheckpointInfo(filepath.Join(ckpt, gexph.LastCheckpointFile)); err != nil || info.Epoch < 2 {
		t.Errorf("last.ckpt: epoch %d (%v), want 2 or later", info.Epoch, err)
	}
}
