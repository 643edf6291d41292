package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// tightAddressSpace is the address-space limit (ulimit -v, KiB) of the limit tests:
// about 2 GB, of which the Go runtime and the cgo threads of this binary map 1.5 GB
// before anything is allocated.
const tightAddressSpace = "2000000"

// roomyAddressSpace (KiB) leaves a tiny run room whatever the runtime and its threads
// map at start (about 1.5–1.7 GiB, more under load).
const roomyAddressSpace = "4000000"

// runUnderLimit runs the test binary as the gexph command under ulimit -v
// tightAddressSpace and returns its exit code and combined output.
func runUnderLimit(t *testing.T, args ...string) (int, string) {
	t.Helper()
	return runUnderLimitOf(t, tightAddressSpace, args...)
}

// runUnderLimitOf runs the test binary as the gexph command under ulimit -v limit (KiB)
// and returns its exit code and combined output.
func runUnderLimitOf(t *testing.T, limit string, args ...string) (int, string) {
	t.Helper()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash for ulimit")
	}
	if out, err := exec.Command("bash", "-c", "ulimit -v "+limit).CombinedOutput(); err != nil {
		t.Skipf("ulimit -v %s unavailable: %v %s", limit, err, out)
	}
	cmd := exec.Command("bash", append([]string{"-c", `ulimit -v ` + limit + ` && exec "$0" "$@"`, os.Args[0]}, args...)...)
	cmd.Env = append(os.Environ(), runAsMainEnv+"=1")
	out, err := cmd.CombinedOutput()
	code := 0
	if err != nil {
		exit, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatalf("running %v: %v", args, err)
		}
		code = exit.ExitCode()
	}
	return code, string(out)
}

// Under a tight address-space limit a tiny training run succeeds, and one that would
// not fit (the demo preset: its data or its training step) is refused with a message
// naming the limit, instead of the runtime's fatal out-of-memory error and goroutine
// dump.
func TestTrainUnderATightAddressSpaceLimitFitsOrSaysItCannot(t *testing.T) {
	tiny := []string{"train", "-dataset", "pattern", "-preset", "demo", "-json", "-quiet",
		"-set", `{"layers":1,"hidden_dim":8,"heads":2,"epochs":1,"batch_size":4,"max_train":16,"max_val":8,"max_test":8,"pe":"none"}`}
	// Under the tight limit a tiny run fits, or — when the runtime and its threads have
	// mapped most of the address space at start, which varies with the machine's load —
	// says it cannot; it never dies.
	code, out := runUnderLimit(t, tiny...)
	fits := code == 0 && strings.Contains(out, `"val_metric"`)
	refused := code == 1 && strings.Contains(out, "more than the") && strings.Contains(out, "ulimit -v")
	if !fits && !refused || strings.Contains(out, "fatal error") || strings.Contains(out, "goroutine ") {
		t.Errorf("tiny run under ulimit -v %s: exit %d, want a run or a refusal naming the limit\n%s", tightAddressSpace, code, out)
	}
	// With room, it runs.
	if code, out = runUnderLimitOf(t, roomyAddressSpace, tiny...); code != 0 || !strings.Contains(out, `"val_metric"`) {
		t.Errorf("tiny run under ulimit -v %s: exit %d\n%s", roomyAddressSpace, code, out)
	}
	code, out = runUnderLimit(t, "train", "-dataset", "pattern", "-preset", "demo", "-epochs", "1", "-quiet")
	if code != 1 || strings.Contains(out, "fatal error") || strings.Contains(out, "goroutine ") ||
		!strings.Contains(out, "more than the") || !strings.Contains(out, "ulimit -v") {
		t.Errorf("demo run under ulimit -v %s: exit %d, want 1 with a refusal naming the limit\n%s", tightAddressSpace, code, out)
	}
}

// Flags that size what a command allocates (bench -n/-e/-hidden, expander -n/-d, the
// model's hidden_dim) are estimated and refused, naming the value and the estimate
// against the available memory, before anything is allocated: each of these would
// otherwise end in a fatal out-of-memory error.
func TestCommandsRefuseSizesBeyondMemoryBeforeAllocating(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"bench", "-case", "attention", "-e", "2000000000"}, "-e 2000000000"},
		{[]string{"bench", "-case", "gps", "-n", "100000", "-hidden", "1048576", "-heads", "1"}, "-hidden 1048576"},
		{[]string{"bench", "-case", "expander", "-n", "1000000000", "-d", "600"}, "expander -n 1000000000 -d 600"},
		{[]string{"expander", "-n", "2000000000", "-d", "600"}, "expander -n 2000000000 -d 600"},
		{[]string{"bench", "-case", "model", "-preset", "demo", "-set", `{"hidden_dim":16777216}`}, "hidden_dim 16777216"},
	} {
		code, _, errOut := runCLI(t, c.args...)
		if code != 1 || !strings.Contains(errOut, c.want) || !strings.Contains(errOut, "of memory, more than the") {
			t.Errorf("gexph %s: exit %d, stderr %q; want a refusal naming %q and the memory available", strings.Join(c.args, " "), code, errOut, c.want)
		}
	}
}

// Data sets generated to a size the user gives (PATTERN's graph counts, planted:N) are
// estimated and refused against the memory budget before they are generated.
func TestCommandsRefuseGeneratedDataBeyondMemory(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"data", "-dataset", "pattern", "-train-graphs", "1000000000"}, "1000000000 train"},
		{[]string{"train", "-dataset", "planted:2000000000", "-quiet"}, "2000000000 nodes"},
		{[]string{"bench", "-case", "scaling", "-n", "2000000000"}, "-n 2000000000 nodes"},
	} {
		code, _, errOut := runCLI(t, c.args...)
		if code != 1 || !strings.Contains(errOut, c.want) || !strings.Contains(errOut, "more than the") {
			t.Errorf("gexph %s: exit %d, stderr %q; want a refusal naming %q and the bound", strings.Join(c.args, " "), code, errOut, c.want)
		}
	}
}

// bench -case model checks a training step against the budget before it builds the
// model, as train does; both say how to start it anyway (the estimate is an upper
// bound).
func TestBenchModelRefusesAStepBeyondMemory(t *testing.T) {
	huge := `{"virtual_nodes":100000000}`
	for _, args := range [][]string{
		{"bench", "-case", "model", "-preset", "demo", "-batch", "4", "-set", huge},
		{"train", "-dataset", "pattern", "-preset", "demo", "-quiet", "-set", huge},
	} {
		code, _, errOut := runCLI(t, args...)
		if code != 1 || !strings.Contains(errOut, "virtual_nodes 100000000") || !strings.Contains(errOut, "out of memory") ||
			!strings.Contains(errOut, "-no-memory-check") {
			t.Errorf("gexph %s: exit %d, stderr %q; want a refusal naming -no-memory-check", strings.Join(args, " "), code, errOut)
		}
	}
}
