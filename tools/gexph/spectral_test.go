package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeTwoCopies writes the edge list of two disjoint copies of a connected, non-regular
// graph on m nodes (a path with chords), so that the top eigenvalue is repeated.
func writeTwoCopies(t *testing.T, m int) string {
	t.Helper()
	var b strings.Builder
	for c := range 2 {
		off := c * m
		for u := 1; u < m; u++ {
			fmt.Fprintf(&b, "%d %d\n", off+u-1, off+u)
			if u%7 == 0 {
				fmt.Fprintf(&b, "%d %d\n", off+u, off+(u*u)%m)
			}
		}
	}
	p := filepath.Join(t.TempDir(), "two.txt")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// Two identical components: `gexph spectral` reports 2 components, λ₂ = λ₁ and ε = 1,
// and says DISCONNECTED in text, both on the dense path (small) and on the Lanczos path
// (more than spectral.AutoDenseNodes nodes).
func TestSpectralReportsDisconnectedRepeatedTop(t *testing.T) {
	for _, m := range []int{40, 400} {
		p := writeTwoCopies(t, m)
		code, out, errOut := runCLI(t, "spectral", "-edges", p, "-json")
		if code != 0 {
			t.Fatalf("m=%d: exit %d: %s", m, code, errOut)
		}
		r := decodeJSON(t, out)
		requireKeys(t, r, "components", "lambda1", "lambda2")
		if r["components"].(float64) != 2 || r["epsilon"].(float64) != 1 ||
			math.Abs(r["lambda1"].(float64)-r["lambda2"].(float64)) > 1e-3 {
			t.Errorf("m=%d: %v", m, r)
		}
		code, out, _ = runCLI(t, "spectral", "-edges", p)
		if code != 0 || !strings.Contains(out, "DISCONNECTED") || !strings.Contains(out, "top eigenvalue is repeated") {
			t.Errorf("m=%d: text output (exit %d):\n%s", m, code, out)
		}
	}
}

// The node count of an edge list's header is honoured: trailing isolated nodes count.
func TestSpectralHonoursHeaderNodeCount(t *testing.T) {
	p := filepath.Join(t.TempDir(), "isolated.txt")
	if err := os.WriteFile(p, []byte("# gexph edge list: 10 nodes, 2 edges\n0 1\n1 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, "spectral", "-edges", p, "-json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if r := decodeJSON(t, out); r["n"].(float64) != 10 || r["components"].(float64) != 8 {
		t.Errorf("n = %v, components = %v; want 10 and 8", r["n"], r["components"])
	}
	if err := os.WriteFile(p, []byte("# gexph edge list: 3 nodes, 2 edges\n0 1\n1 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runCLI(t, "spectral", "-edges", p); code == 0 || !strings.Contains(errOut, p+":3: column 2: node 3 is outside the 3 nodes") {
		t.Errorf("id above the header's count: exit %d, stderr %q", code, errOut)
	}
}

// A self-loop-heavy draw (5 nodes, degree 4, seed 7: a node loses every stub) is written
// by `gexph expander -out` and read back by `gexph spectral`: both see the same node
// count (the header keeps isolated nodes), components, degrees and λ₁, λ₂, λₙ; the
// expander refuses to call the disconnected single draw near-Ramanujan, and with
// retries it returns a connected, accepted graph.
func TestExpanderCertificateMatchesSpectralOnSelfLoopHeavyDraw(t *testing.T) {
	for _, attempts := range []string{"1", "10"} {
		path := filepath.Join(t.TempDir(), "g.txt")
		code, out, errOut := runCLI(t, "expander", "-n", "5", "-d", "4", "-seed", "7", "-attempts", attempts, "-json", "-out", path)
		if code != 0 {
			t.Fatalf("expander exited %d: %s", code, errOut)
		}
		ex := decodeJSON(t, out)
		code, out, errOut = runCLI(t, "spectral", "-edges", path, "-json")
		if code != 0 {
			t.Fatalf("spectral exited %d: %s", code, errOut)
		}
		sp := decodeJSON(t, out)
		for _, k := range []string{"n", "components", "degree_min", "degree_max"} {
			if sp[k] != ex[k] {
				t.Errorf("attempts %s: %s: certificate %v, spectral %v", attempts, k, ex[k], sp[k])
			}
		}
		for _, k := range []string{"lambda1", "lambda2", "lambda_min"} {
			if d := math.Abs(sp[k].(float64) - ex[k].(float64)); d > 1e-3 {
				t.Errorf("attempts %s: %s: certificate %v, spectral %v", attempts, k, ex[k], sp[k])
			}
		}
		connected := ex["components"].(float64) == 1
		if attempts == "1" && (connected || ex["degree_min"].(float64) != 0 || ex["accepted"] != false) {
			t.Errorf("single draw: want an isolated node and no acceptance: %v", ex)
		}
		if attempts == "10" && (!connected || ex["accepted"] != true) {
			t.Errorf("with retries: want a connected, accepted graph: %v", ex)
		}
	}
}
