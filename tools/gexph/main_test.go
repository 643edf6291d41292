package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/gexph/gexph/spectral"
)

// runCLI runs the command line in-process and returns its exit code, stdout and stderr.
func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// decodeJSON decodes the single JSON object a -json command prints.
func decodeJSON(t *testing.T, out string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("output is not one JSON object: %v\n%s", err, out)
	}
	return m
}

func requireKeys(t *testing.T, m map[string]any, keys ...string) {
	t.Helper()
	for _, k := range keys {
		if _, ok := m[k]; !ok {
			t.Errorf("JSON output lacks %q: %v", k, m)
		}
	}
}

// The expander command's -out file is what the spectral command reads, and both report
// the same spectrum: λ₂ from the certificate (Lanczos) and from the analysis (dense,
// since the graph is small) agree.
func TestExpanderSpectralRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "g.txt")
	code, out, errOut := runCLI(t, "expander", "-n", "300", "-d", "6", "-seed", "3", "-json", "-out", path)
	if code != 0 {
		t.Fatalf("expander exited %d: %s", code, errOut)
	}
	ex := decodeJSON(t, out)
	requireKeys(t, ex, "n", "d", "algo", "edges", "self_loops_removed", "lambda2", "lambda_min", "bound", "epsilon", "attempts", "seconds")
	if ex["n"].(float64) != 300 || ex["d"].(float64) != 6 || ex["algo"] != "standard" {
		t.Errorf("expander echoes n, d, algo wrongly: %v", ex)
	}
	if got, want := ex["bound"].(float64), 2*math.Sqrt(5); math.Abs(got-want) > 1e-12 {
		t.Errorf("bound %v, want 2√5 = %v", got, want)
	}

	code, out, errOut = runCLI(t, "spectral", "-edges", path, "-json")
	if code != 0 {
		t.Fatalf("spectral exited %d: %s", code, errOut)
	}
	sp := decodeJSON(t, out)
	requireKeys(t, sp, "n", "edges", "degree_min", "degree_max", "lambda2", "lambda_min", "epsilon", "mixing_bound", "mixing_measured", "diameter")
	if sp["n"] != ex["n"] || sp["edges"] != ex["edges"] {
		t.Errorf("spectral sees n=%v edges=%v, expander wrote n=%v edges=%v", sp["n"], sp["edges"], ex["n"], ex["edges"])
	}
	for _, k := range []string{"lambda2", "lambda_min"} {
		if d := math.Abs(sp[k].(float64) - ex[k].(float64)); d > 1e-3 {
			t.Errorf("%s: spectral %v vs certificate %v", k, sp[k], ex[k])
		}
	}
	if sp["mixing_measured"].(float64) > sp["mixing_bound"].(float64) {
		t.Errorf("measured mixing %v exceeds the bound %v on an expander", sp["mixing_measured"], sp["mixing_bound"])
	}

	// The written file is a valid edge list of the same graph.
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	g, err := spectral.ReadEdgeList(f, path)
	if err != nil {
		t.Fatal(err)
	}
	if lo, hi := g.DegreeRange(); hi > 6 || lo < 6-2*int(ex["self_loops_removed"].(float64)) {
		t.Errorf("degrees %d..%d of a 6-regular graph with %v self loops removed", lo, hi, ex["self_loops_removed"])
	}
}

// Text output names the verdict; -h succeeds; the top-level usage lists the commands.
func TestHumanOutputAndHelp(t *testing.T) {
	code, out, _ := runCLI(t, "expander", "-n", "200", "-d", "4")
	if code != 0 || !strings.Contains(out, "verdict") || !strings.Contains(out, "lambda2") {
		t.Errorf("expander text output (exit %d):\n%s", code, out)
	}
	for _, cmd := range []string{"expander", "spectral", "data", "train", "bench"} {
		if code, _, errOut := runCLI(t, cmd, "-h"); code != 0 || !strings.Contains(errOut, "Usage: gexph "+cmd) {
			t.Errorf("%s -h: exit %d, usage:\n%s", cmd, code, errOut)
		}
	}
	code, out, _ = runCLI(t, "-h")
	for _, cmd := range []string{"expander", "spectral", "data", "train", "bench", "repl"} {
		if code != 0 || !strings.Contains(out, cmd) {
			t.Errorf("usage lacks %q (exit %d)", cmd, code)
		}
	}
}

// Bad input gets an error that names the problem, and a non-zero exit code.
func TestBadInput(t *testing.T) {
	empty := filepath.Join(t.TempDir(), "empty.txt")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(t.TempDir(), "bad.txt")
	if err := os.WriteFile(bad, []byte("0 1\n1 x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"nosuchcommand"}, "unknown command"},
		{[]string{"expander", "-n", "100", "-d", "5"}, "even"},
		{[]string{"expander", "-n", "6", "-d", "6"}, "below the node count"},
		{[]string{"expander", "-n", "0", "-d", "4"}, "n=0"},
		{[]string{"expander", "-algo", "ramanujan"}, "ramanujan"},
		{[]string{"expander", "-bogus"}, "bogus"},
		{[]string{"expander", "stray"}, "stray"},
		{[]string{"spectral"}, "-edges is required"},
		{[]string{"spectral", "-edges", "/nonexistent/g.txt"}, "/nonexistent/g.txt"},
		{[]string{"spectral", "-edges", empty}, empty},
		{[]string{"spectral", "-edges", bad}, "bad.txt:2"},
		{[]string{"data"}, "-dataset is required"},
		{[]string{"data", "-dataset", "nosuchset"}, "nosuchset"},
		{[]string{"train", "-dataset", "pattern", "-preset", "nosuchpreset"}, "nosuchpreset"},
		{[]string{"train", "-dataset", "npz:/x.npz"}, "/x.npz"},
		{[]string{"train", "-dataset", "mystery"}, "-preset is required"},
		{[]string{"train", "-dataset", "pattern", "-preset", "demo", "-set", `{"layers": "many"}`}, "-set"},
		{[]string{"train", "-dataset", "pattern", "-preset", "demo", "-resume"}, "-resume needs -out"},
		{[]string{"bench", "-case", "quantum"}, "quantum"},
		{[]string{"bench", "-case", "model", "-preset", "demo", "-steps", "-1"}, "-steps -1"},
		{[]string{"train", "-dataset", "pattern", "-preset", "demo", "-epochs", "-5"}, "-epochs -5"},
		{[]string{"train", "-dataset", "pattern", "-preset", "demo", "-set", `{"layers":1}{"layers":-7}`}, "after the JSON value"},
		{[]string{"train", "-dataset", "pattern", "-preset", "demo", "-set", `{"Layers":1}`}, `did you mean "layers"`},
		{[]string{"spectral", "-edges", bad, "-delta", "0"}, "-delta 0"},
		{[]string{"spectral", "-edges", bad, "-delta", "-0.5"}, "-delta -0.5"},
		{[]string{"expander", "-n", "300000000", "-d", "6"}, "memory"},
	} {
		code, _, errOut := runCLI(t, tc.args...)
		if code == 0 || !strings.Contains(errOut, tc.want) {
			t.Errorf("gexph %s: exit %d, stderr %q; want an error mentioning %q", strings.Join(tc.args, " "), code, errOut, tc.want)
		}
	}
}

// The data command reports a generated data set's statistics consistently.
func TestDataPattern(t *testing.T) {
	code, out, errOut := runCLI(t, "data", "-dataset", "pattern", "-train-graphs", "20", "-val-graphs", "5", "-test-graphs", "5", "-json")
	if code != 0 {
		t.Fatalf("data exited %d: %s", code, errOut)
	}
	m := decodeJSON(t, out)
	requireKeys(t, m, "graphs", "nodes", "edges", "features", "classes", "train", "val", "test")
	if m["graphs"].(float64) != 30 || m["train"].(float64) != 20 || m["classes"].(float64) != 2 {
		t.Errorf("PATTERN subset statistics: %v", m)
	}
	if m["edges"].(float64) != 2*m["edges_undirected"].(float64) {
		t.Errorf("PATTERN stores each undirected edge twice: %v stored, %v undirected", m["edges"], m["edges_undirected"])
	}
}

// A tiny training run through the CLI prints the documented JSON fields and a
// class-weighted accuracy in [0, 1].
func TestTrainJSON(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a model")
	}
	set := `{"layers":1,"hidden_dim":16,"heads":2,"epochs":2,"batch_size":8,"max_train":16,"max_val":8,"max_test":8,"pe":"none"}`
	code, out, errOut := runCLI(t, "train", "-dataset", "pattern", "-preset", "demo", "-set", set, "-json", "-quiet", "-out", t.TempDir())
	if code != 0 {
		t.Fatalf("train exited %d: %s", code, errOut)
	}
	m := decodeJSON(t, out)
	requireKeys(t, m, "dataset", "preset", "params", "epochs", "best_epoch", "val_metric", "test_metric", "metric", "seconds", "peak_rss_mb")
	if peak := m["peak_rss_mb"].(float64); runtime.GOOS == "linux" && !(peak > 10) {
		t.Errorf("peak_rss_mb %v: want the process's peak, above 10 MiB", peak)
	}
	if m["epochs"].(float64) != 2 || m["preset"] != "demo" {
		t.Errorf("train result: %v", m)
	}
	if v := m["test_metric"].(float64); !(v >= 0 && v <= 1) {
		t.Errorf("test metric %v outside [0, 1]", v)
	}
}

func TestBenchModelJSON(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a model")
	}
	code, out, errOut := runCLI(t, "bench", "-case", "model", "-preset", "demo", "-batch", "4", "-steps", "2",
		"-set", `{"layers":1,"hidden_dim":8,"heads":2}`, "-json")
	if code != 0 {
		t.Fatalf("bench exited %d: %s", code, errOut)
	}
	m := decodeJSON(t, out)
	requireKeys(t, m, "ms_per_step", "peak_rss_mb", "params", "graphs", "nodes", "graphs_per_sec", "nodes_per_sec")
	if m["graphs"].(float64) != 4 || !(m["ms_per_step"].(float64) > 0) || !(m["params"].(float64) > 0) {
		t.Errorf("bench result: %v", m)
	}
	if code, _, errOut := runCLI(t, "bench", "-case", "model", "-preset", "scaling"); code == 0 || !strings.Contains(errOut, "planted") {
		t.Errorf("scaling without a data set: exit %d, %s", code, errOut)
	}
}
