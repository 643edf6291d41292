package gexph

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/gexph/gexph/internal/sysinfo"
)

// buildInfo is the build information of a program linking compute (replaced or not),
// gexph as gexphDep (nil: gexph is the main module) and GOEXPERIMENT exp ("": unset).
func buildInfo(computeReplaced bool, gexphDep *debug.Module, exp string) *debug.BuildInfo {
	c := &debug.Module{Path: computeModule, Version: "v0.1.14"}
	if computeReplaced {
		c.Replace = &debug.Module{Path: "./third_party/compute"}
	}
	bi := &debug.BuildInfo{Main: debug.Module{Path: "example.com/mine"}, Deps: []*debug.Module{c}}
	if gexphDep != nil {
		bi.Deps = append(bi.Deps, gexphDep)
	}
	if exp != "" {
		bi.Settings = append(bi.Settings, debug.BuildSetting{Key: "GOEXPERIMENT", Value: exp})
	}
	return bi
}

func TestBuildWarningsAreNoneForAPatchedSIMDBuild(t *testing.T) {
	if w := BuildWarnings(buildInfo(true, nil, "simd")); len(w) != 0 {
		t.Errorf("patched compute, GOEXPERIMENT=simd: got warnings %q, want none", w)
	}
	if w := BuildWarnings(buildInfo(true, nil, "arenas,simd")); len(w) != 0 {
		t.Errorf("GOEXPERIMENT=arenas,simd: got warnings %q, want none", w)
	}
}

func TestBuildWarningsNameTheReplaceLineOfAnUnpatchedCompute(t *testing.T) {
	dep := &debug.Module{Path: gexphModule, Version: "v0.3.0"}
	w := BuildWarnings(buildInfo(false, dep, "simd"))
	if len(w) != 1 {
		t.Fatalf("unpatched compute: got %d warnings %q, want 1", len(w), w)
	}
	for _, want := range []string{"github.com/gomlx/compute v0.1.14 is linked unpatched", "1.6×",
		"replace github.com/gomlx/compute => /path/to/gexph/third_party/compute\n", "gexph v0.3.0"} {
		if !strings.Contains(w[0], want) {
			t.Errorf("warning %q lacks %q", w[0], want)
		}
	}
}

func TestBuildWarningsReplaceLinePointsBesideALocalGexph(t *testing.T) {
	dep := &debug.Module{Path: gexphModule, Version: "v0.0.0", Replace: &debug.Module{Path: "../gexph", Version: "(devel)"}}
	w := BuildWarnings(buildInfo(false, dep, "simd"))
	if len(w) != 1 || !strings.Contains(w[0], "\treplace github.com/gomlx/compute => ../gexph/third_party/compute\n") {
		t.Errorf("gexph replaced by ../gexph: got %q, want the replace line to ../gexph/third_party/compute", w)
	}
}

func TestBuildWarningsNameAMissingSIMDExperiment(t *testing.T) {
	for _, exp := range []string{"", "arenas"} {
		w := BuildWarnings(buildInfo(true, nil, exp))
		if len(w) != 1 || !strings.Contains(w[0], "GOEXPERIMENT=simd") {
			t.Errorf("GOEXPERIMENT=%q: got %q, want one warning naming GOEXPERIMENT=simd", exp, w)
		}
	}
	if w := BuildWarnings(buildInfo(false, nil, "")); len(w) != 2 {
		t.Errorf("unpatched and without simd: got %d warnings %q, want 2", len(w), w)
	}
}

func TestThisTestBinaryLinksThePatchedComputeWithSIMD(t *testing.T) {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		t.Skip("no build information")
	}
	if w := BuildWarnings(bi); len(w) != 0 {
		t.Errorf("the module's own build (go.mod's replace, GOEXPERIMENT=simd): got warnings %q", w)
	}
}

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
