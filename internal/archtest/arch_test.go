// Package archtest checks the import rules of docs/ARCHITECTURE.md.
package archtest

import (
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/gexph/gexph/"

// allowed lists, for each package of the module (by path inside the module), the
// packages of the module it may import; a key ending in "/" covers a folder.
var allowed = map[string][]string{
	"internal/atomicfile":  {},
	"internal/jsonfile":    {"internal/atomicfile"},
	"internal/sysinfo":     {},
	"internal/shareddata":  {"internal/modroot"},
	"internal/modroot":     {},
	"internal/dirlock":     {},
	"internal/dirsnap":     {"internal/dirlock"},
	"internal/pyfind":      {},
	"internal/regfile":     {},
	"internal/cudafind":    {},
	"internal/cpuprofile":  {},
	"internal/tfevents":    {},
	"internal/safetensors": {"internal/atomicfile"},
	"internal/progress":    {},
	"internal/logfile":     {"internal/atomicfile"},
	"internal/rundir":      {"internal/atomicfile", "internal/dirlock"},
	"spectral":             {"internal/atomicfile"},
	"data/npy":             {"internal/regfile"},
	"data/smiles":          {},
	"data/superpixel":      {},
	"data/internal/":       {"data/npy"},
	"data":                 {"data/npy", "data/smiles", "data/superpixel", "internal/atomicfile", "internal/jsonfile", "internal/regfile", "internal/modroot"},
	"expander":             {"spectral"},
	"layers":               {},
	"gexph":                {"data", "expander", "spectral", "layers", "internal/atomicfile", "gexph/buildcheck", "gexph/metrics", "gexph/posenc", "internal/jsonfile", "internal/logfile", "internal/progress", "internal/rundir", "internal/sysinfo", "internal/tfevents", "internal/cudafind"},
	"gexph/compare":        {"gexph", "data"},
	"gexph/torchexport":    {"gexph", "data", "internal/safetensors"},
	"gexph/buildcheck":     {},
	"gexph/metrics":        {},
	"gexph/posenc":         {"data", "spectral"},
	"plots":                {"data", "expander", "spectral", "internal/atomicfile"},
	"suite":                {"gexph", "plots", "data", "layers", "expander", "spectral", "internal/atomicfile", "internal/jsonfile", "internal/sysinfo"},
	"notebooks":            {},
	"tools/":               {"*"},
}

func rule(pkg string) ([]string, bool) {
	if r, ok := allowed[pkg]; ok {
		return r, true
	}
	for k, r := range allowed {
		if strings.HasSuffix(k, "/") && strings.HasPrefix(pkg, k) {
			return r, true
		}
	}
	return nil, false
}

func TestImportsFollowTheArchitecture(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", module+"...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg := strings.TrimPrefix(fields[0], module)
		if pkg == "internal/archtest" {
			continue
		}
		may, ok := rule(pkg)
		if !ok {
			t.Errorf("package %s has no rule in docs/ARCHITECTURE.md's table (add it here and there)", pkg)
			continue
		}
		if len(may) == 1 && may[0] == "*" {
			continue
		}
		for _, imp := range fields[1:] {
			if !strings.HasPrefix(imp, module) {
				continue
			}
			dep := strings.TrimPrefix(imp, module)
			okDep := false
			for _, m := range may {
				if dep == m || strings.HasSuffix(m, "/") && strings.HasPrefix(dep, m) {
					okDep = true
				}
			}
			if !okDep {
				t.Errorf("%s imports %s, which the architecture does not allow", pkg, dep)
			}
		}
	}
}
