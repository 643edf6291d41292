package gexph

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/gexph/gexph/gexph/buildcheck"
	"github.com/gexph/gexph/internal/sysinfo"
)

func TestSetupRuntimeActsOnce(t *testing.T) {
	first := SetupRuntime()
	if again := SetupRuntime(); again != first {
		t.Errorf("second SetupRuntime returned %d bytes, want the first call's %d", again, first)
	}
}

// runtimeChildEnv makes the test binary a program that trains without calling
// SetupRuntime (see TestMain) and prints the collector's target before and after.
const runtimeChildEnv = "GEXPH_TEST_RUNTIME_CHILD"

// runRuntimeChild is that program.
func runRuntimeChild() int {
	gcPercent := func() int { p := debug.SetGCPercent(-1); debug.SetGCPercent(p); return p }
	before := gcPercent()
	if _, err := Train(context.Background(), tinyConfig(), tinyNodeDataset(6, 4), TrainOptions{}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Printf("GOGC before Train %d, after %d\n", before, gcPercent())
	return 0
}

// A program that never calls SetupRuntime gets it from Train: the collector's target
// is Go's default before (importing gexph changes nothing) and SetupRuntime's after.
func TestTrainPreparesTheRuntimeItself(t *testing.T) {
	cmd := exec.Command(os.Args[0])
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GOGC=") && !strings.HasPrefix(kv, "GOMEMLIMIT=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, runtimeChildEnv+"=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	want := fmt.Sprintf("GOGC before Train 100, after %d\n", sysinfo.DefaultGCPercent)
	if string(out) != want {
		t.Errorf("child printed %q, want %q", out, want)
	}
}

// The gexph test binary links compute as every program of this module does: patched
// (go.mod's replace) and with GOEXPERIMENT=simd, so buildcheck finds nothing to warn of.
func TestThisTestBinaryLinksThePatchedComputeWithSIMD(t *testing.T) {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		t.Skip("no build information")
	}
	if w := buildcheck.Warnings(bi); len(w) != 0 {
		t.Errorf("the module's own build (go.mod's replace, GOEXPERIMENT=simd): got warnings %q", w)
	}
}
