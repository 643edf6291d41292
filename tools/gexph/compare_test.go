package main

import (
	"strings"
	"testing"
)

// TestCompareCommand runs compare between two configurations of the go backend: the
// verdict is OK with every difference zero, the JSON names the batch and the
// gradients, and the human report ends with the verdict.
func TestCompareCommand(t *testing.T) {
	code, out, errOut := runCLI(t, "compare", "-backend", "go:parallelism=1", "-dataset", "pattern", "-preset", "demo", "-batch", "2", "-json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	m := decodeJSON(t, out)
	worst, _ := m["worst_gradient"].(map[string]any)
	if m["ok"] != true || m["graphs"] != float64(2) || worst["rel_err"] != float64(0) || worst["name"] == "" {
		t.Errorf("compare -json: %v", m)
	}
	code, out, errOut = runCLI(t, "compare", "-backend", "go", "-dataset", "pattern", "-preset", "demo", "-batch", "2")
	if code != 0 || !strings.Contains(out, "verdict      OK") || !strings.Contains(out, "gradients of") {
		t.Errorf("compare: exit %d, stdout:\n%s\nstderr: %s", code, out, errOut)
	}
}

// TestCompareRefusesBadFlags names the flag at fault.
func TestCompareRefusesBadFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"compare", "-dataset", "pattern"}, "-backend is required"},
		{[]string{"compare", "-backend", "go", "-batch", "-3"}, "-batch -3"},
		{[]string{"compare", "-backend", "go", "-preset", "demo", "-tol", "-1"}, "tolerance"},
		{[]string{"compare", "-backend", "xla:/nonexistent/plugin.so", "-preset", "demo", "-batch", "2"}, "/nonexistent/plugin.so"},
	} {
		code, _, errOut := runCLI(t, tc.args...)
		if code == 0 || !strings.Contains(errOut, tc.want) {
			t.Errorf("gexph %s: exit %d, stderr %q; want an error with %q", strings.Join(tc.args, " "), code, errOut, tc.want)
		}
	}
	if code, _, errOut := runCLI(t, "compare", "-h"); code != 0 || !strings.Contains(errOut, "Examples:") || !strings.Contains(errOut, "-tol") {
		t.Errorf("compare -h: exit %d\n%s", code, errOut)
	}
}
