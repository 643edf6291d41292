package data

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gexph/gexph/data/npy"
	"github.com/gexph/gexph/internal/shareddata"
)

// writeSplitNPZ writes parts (name → indices) as np.savez does.
func writeSplitNPZ(t *testing.T, path string, parts map[string][]int64) {
	t.Helper()
	var entries []npy.Entry
	for _, name := range []string{"train", "valid", "val", "test"} {
		if v, ok := parts[name]; ok {
			entries = append(entries, npy.Entry{Name: name, Shape: []int{len(v)}, Data: v})
		}
	}
	writeTestNPZ(t, path, entries)
}

// A split file replaces the random split of Cora (every node, as PyG numbers them) with
// its indices, in the .npz form Luo et al. publish (train, valid, test) and in the JSON
// form (val); the data set's transforms name it.
func TestSplitFileReplacesTheRandomSplit(t *testing.T) {
	shareddata.Path(t, "gnn-benchmark/cora.npz")
	dir := t.TempDir()
	npzPath, jsonPath := filepath.Join(dir, "cora_split.npz"), filepath.Join(dir, "cora_split.json")
	writeSplitNPZ(t, npzPath, map[string][]int64{"train": {5, 1, 2707}, "valid": {3, 4}, "test": {0, 10, 11}})
	if err := os.WriteFile(jsonPath, []byte(`{"train": [5, 1, 2707], "val": [3, 4], "test": [0, 10, 11]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{npzPath, jsonPath} {
		ds, err := Load("cora", LoadOptions{DataDir: shareddata.Root(), NoCache: true, Seed: 3, Transforms: Transforms{AllNodes: true}, SplitFile: path})
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		want := Split{Train: []int{5, 1, 2707}, Val: []int{3, 4}, Test: []int{0, 10, 11}}
		if !slices.Equal(ds.Split.Train, want.Train) || !slices.Equal(ds.Split.Val, want.Val) || !slices.Equal(ds.Split.Test, want.Test) {
			t.Errorf("%s: split %v, want %v", path, ds.Split, want)
		}
		if last := ds.Transforms[len(ds.Transforms)-1]; !strings.Contains(last, filepath.Base(path)) || !strings.Contains(last, "3/2/3") {
			t.Errorf("%s: transforms %q do not name the split file and its sizes", path, ds.Transforms)
		}
	}
}

// A split file that does not fit the data set is refused with an error naming the file
// and what is wrong: an index past the last node, an index in two parts, a missing part,
// a file that is neither form.
func TestSplitFileRefusesWhatDoesNotFit(t *testing.T) {
	shareddata.Path(t, "gnn-benchmark/cora.npz")
	dir := t.TempDir()
	cases := []struct {
		name  string
		parts map[string][]int64
		raw   string
		want  string
	}{
		{name: "past.npz", parts: map[string][]int64{"train": {1, 2708}, "valid": {3}, "test": {4}}, want: "node index 2708 outside [0, 2708)"},
		{name: "overlap.npz", parts: map[string][]int64{"train": {1, 2}, "valid": {2}, "test": {4}}, want: "node index 2 is in both the train split"},
		{name: "noval.npz", parts: map[string][]int64{"train": {1}, "test": {4}}, want: `no array "val" or "valid"`},
		{name: "text.json", raw: "train: 1 2 3", want: "want an .npz or a JSON object"},
		{name: "fractions.json", raw: `{"train": [1.5], "val": [2], "test": [3]}`, want: "fractions.json"},
	}
	for _, c := range cases {
		path := filepath.Join(dir, c.name)
		if c.parts != nil {
			writeSplitNPZ(t, path, c.parts)
		} else if err := os.WriteFile(path, []byte(c.raw), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Load("cora", LoadOptions{DataDir: shareddata.Root(), NoCache: true, Transforms: Transforms{AllNodes: true}, SplitFile: path})
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), c.name) {
			t.Errorf("%s: %v, want an error naming the file and %q", c.name, err, c.want)
		}
	}
}
