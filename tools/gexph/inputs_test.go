package main

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gexph/gexph/gexph"
	"github.com/gexph/gexph/internal/jsonfile"
)

// Flags and settings that are out of range, malformed, given twice or meaningless for
// the run are refused by an error naming the flag, key or spec.
func TestTrainRefusesBadFlagsByName(t *testing.T) {
	dup := filepath.Join(t.TempDir(), "dup.yaml")
	if err := os.WriteFile(dup, []byte("layers: 2\nlr: 0.1\nlr: 0.2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	demo := []string{"train", "-dataset", "pattern", "-preset", "demo"}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-batch-nodes", "-5"}, "-batch-nodes -5"},
		{[]string{"-fanout", "local=ten"}, `"local=ten"`},
		{[]string{"-batch-nodes", "64", "-fanout", "local=3/local=3/local=3/local=3/local=3/local=3/local=3"}, "-fanout"},
		{[]string{"-fanout", "local=3"}, "full-batch"},
		{[]string{"-set", "lr=0.1", "-set", "lr=0.2"}, `"lr" set twice`},
		{[]string{"-set", `{"lr": 0.1, "lr": 0.2}`}, `"lr" appears twice`},
		{[]string{"-set", "batch_nodes=4", "-batch-nodes", "8"}, "-batch-nodes and -set batch_nodes=4"},
		{[]string{"-set", "lr=nan"}, "lr = NaN"},
		{[]string{"-set", "lr=.inf"}, "lr = +Inf"},
		{[]string{"-config", dup}, `line 3: key "lr"`},
		{[]string{"-epochs", "0"}, "-epochs 0"},
		{[]string{"-seed", "0", "-seeds", "1,2"}, "exclude each other"},
		{[]string{"-seeds", "1,x"}, `"x" is not a seed`},
		{[]string{"-seed", "1", "-seed", "2"}, "-seed given twice (1, then 2)"},
		{[]string{"-epochs=3", "--epochs", "4"}, "-epochs given twice (3, then 4)"},
		{[]string{"-quiet", "-json", "-quiet=false"}, "-quiet given twice (true, then false)"},
		{[]string{"-config", dup, "-config", dup}, "-config given twice"},
		{[]string{"-preset", "demo"}, "-preset given twice (demo, then demo)"},
	} {
		args := append(slices.Clone(demo), tc.args...)
		code, _, errOut := runCLI(t, args...)
		if code == 0 || !strings.Contains(errOut, tc.want) {
			t.Errorf("gexph %s: exit %d, stderr %q; want an error mentioning %q", strings.Join(args, " "), code, errOut, tc.want)
		}
	}
}

// checkRepeated reads arguments as the flag package does: a value that looks like a
// flag is a value, "--" and (unless asked) a positional argument end the flags, and
// -set may repeat.
func TestCheckRepeatedFollowsFlagSyntax(t *testing.T) {
	fs := newFlagSet("t", "", io.Discard)
	fs.String("name", "", "")
	fs.Bool("v", false, "")
	fs.Var(new(settingsFlag), "set", "")
	for _, tc := range []struct {
		args   []string
		across bool
		want   string
	}{
		{[]string{"-name", "-v", "-v"}, false, ""},
		{[]string{"-set", "a=1", "-set", "a=2", "-name=x"}, false, ""},
		{[]string{"-name", "x", "--", "-name", "y"}, false, ""},
		{[]string{"-name", "x", "pos", "-name", "y"}, false, ""},
		{[]string{"-name", "x", "pos", "-name", "y"}, true, "-name given twice (x, then y)"},
		{[]string{"-v", "-unknown", "-v=false"}, false, "-v given twice (true, then false)"},
	} {
		err := checkRepeated(fs, tc.args, tc.across)
		if (tc.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("checkRepeated(%q, %v) = %v; want %q", tc.args, tc.across, err, tc.want)
		}
	}
}

// Seed 0 is a seed: -seed 0 and -seeds with 0 run with it and result.json records it.
func TestTrainSeedZeroIsKept(t *testing.T) {
	if s, err := parseSeeds("0,3", false); err != nil || !slices.Equal(s, []uint64{0, 3}) {
		t.Errorf("parseSeeds(\"0,3\") = %v, %v; want [0 3]", s, err)
	}
	if testing.Short() {
		t.Skip("trains a model")
	}
	dir := t.TempDir()
	set := `{"layers":1,"hidden_dim":16,"heads":2,"epochs":1,"batch_size":8,"max_train":16,"max_val":8,"max_test":8,"pe":"none"}`
	code, _, errOut := runCLI(t, "train", "-dataset", "pattern", "-preset", "demo", "-set", set, "-seed", "0", "-quiet", "-out", dir)
	if code != 0 {
		t.Fatalf("train -seed 0 exited %d: %s", code, errOut)
	}
	var res gexph.Result
	if err := jsonfile.Read(filepath.Join(dir, gexph.ResultFile), &res); err != nil {
		t.Fatal(err)
	}
	if res.Seed != 0 || res.Config.Seed != 0 {
		t.Errorf("train -seed 0 recorded seed %d (config %d); want 0", res.Seed, res.Config.Seed)
	}
}
