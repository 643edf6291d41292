// Package pyfind finds a Python interpreter with given modules for tests that check
// gexph's files against NumPy, PyG or PyTorch, and skips the test, saying what is
// missing, where there is none.
package pyfind

import (
	"os/exec"
	"strings"
	"testing"
)

// Python returns the first python3 that imports every module, or skips t with a message
// naming the modules and hint (how to install them).
func Python(t testing.TB, hint string, modules ...string) string {
	t.Helper()
	// The interpreter on PATH, then Debian's (where its python3-* packages install).
	for _, py := range []string{"python3", "/usr/bin/python3"} {
		if exec.Command(py, "-c", "import "+strings.Join(modules, ", ")).Run() == nil {
			return py
		}
	}
	t.Skipf("no python3 with %s (%s)", strings.Join(modules, ", "), hint)
	return ""
}
