package buildcheck

import (
	"runtime/debug"
	"strings"
	"testing"
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
	if w := Warnings(buildInfo(true, nil, "simd")); len(w) != 0 {
		t.Errorf("patched compute, GOEXPERIMENT=simd: got warnings %q, want none", w)
	}
	if w := Warnings(buildInfo(true, nil, "arenas,simd")); len(w) != 0 {
		t.Errorf("GOEXPERIMENT=arenas,simd: got warnings %q, want none", w)
	}
}

func TestBuildWarningsNameTheReplaceLineOfAnUnpatchedCompute(t *testing.T) {
	dep := &debug.Module{Path: gexphModule, Version: "v0.3.0"}
	w := Warnings(buildInfo(false, dep, "simd"))
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
	w := Warnings(buildInfo(false, dep, "simd"))
	if len(w) != 1 || !strings.Contains(w[0], "\treplace github.com/gomlx/compute => ../gexph/third_party/compute\n") {
		t.Errorf("gexph replaced by ../gexph: got %q, want the replace line to ../gexph/third_party/compute", w)
	}
}

func TestBuildWarningsNameAMissingSIMDExperiment(t *testing.T) {
	for _, exp := range []string{"", "arenas"} {
		w := Warnings(buildInfo(true, nil, exp))
		if len(w) != 1 || !strings.Contains(w[0], "GOEXPERIMENT=simd") {
			t.Errorf("GOEXPERIMENT=%q: got %q, want one warning naming GOEXPERIMENT=simd", exp, w)
		}
	}
	if w := Warnings(buildInfo(false, nil, "")); len(w) != 2 {
		t.Errorf("unpatched and without simd: got %d warnings %q, want 2", len(w), w)
	}
}
