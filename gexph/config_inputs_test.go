package gexph

import (
	"bufio"
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gexph/gexph/data"
	"github.com/gexph/gexph/internal/jsonfile"
)

// configField is one numeric field of Config: its JSON name and a pointer into a config.
type configField struct {
	name string
	kind reflect.Kind
}

// numericFields lists Config's int, uint and float fields by JSON name.
func numericFields(t *testing.T) []configField {
	t.Helper()
	var out []configField
	for _, f := range reflect.VisibleFields(reflect.TypeOf(Config{})) {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch k := f.Type.Kind(); k {
		case reflect.Int, reflect.Uint64, reflect.Float64:
			out = append(out, configField{name, k})
		}
	}
	if len(out) < 20 {
		t.Fatalf("found %d numeric Config fields; the reflection is wrong", len(out))
	}
	return out
}

// fieldValue returns the field named name of c as a float64.
func fieldValue(c Config, name string) float64 {
	v := reflect.ValueOf(c)
	for _, sf := range reflect.VisibleFields(v.Type()) {
		if n, _, _ := strings.Cut(sf.Tag.Get("json"), ","); n == name && !sf.Anonymous {
			f := v.FieldByIndex(sf.Index)
			switch f.Kind() {
			case reflect.Int:
				return float64(f.Int())
			case reflect.Uint64:
				return float64(f.Uint())
			default:
				return f.Float()
			}
		}
	}
	panic("no field " + name)
}

func writeFile(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// Every float field given NaN, +Inf or −Inf — set in Go, in a YAML file (.nan, .inf)
// or by -set — is refused by an error naming the field.
func TestNonFiniteFloatFieldsRefusedByName(t *testing.T) {
	base, err := Preset("demo")
	if err != nil {
		t.Fatal(err)
	}
	floats := 0
	for _, f := range numericFields(t) {
		if f.kind != reflect.Float64 {
			continue
		}
		floats++
		for _, v := range []struct {
			x          float64
			yaml, text string
		}{{math.NaN(), ".nan", "NaN"}, {math.Inf(1), ".inf", "+Inf"}, {math.Inf(-1), "-.inf", "-inf"}} {
			c := base
			reflect.ValueOf(&c).Elem().FieldByIndex(fieldIndex(f.name)).SetFloat(v.x)
			if err := c.Validate(); err == nil || !strings.Contains(err.Error(), f.name) {
				t.Errorf("Validate with %s = %v: %v; want an error naming %s", f.name, v.x, err, f.name)
			}
			path := writeFile(t, "c.yaml", "layers: 2\n"+f.name+": "+v.yaml+"\n")
			if _, err := LoadConfig(base, path); err == nil || !strings.Contains(err.Error(), f.name) || !strings.Contains(err.Error(), path) {
				t.Errorf("LoadConfig %s: %s: %v; want an error naming the file and %s", f.name, v.yaml, err, f.name)
			}
			for _, s := range []string{f.name + "=" + v.text, f.name + "=" + v.yaml} {
				if _, err := ParseSetting(base, s); err == nil || !strings.Contains(err.Error(), f.name) {
					t.Errorf("ParseSetting(%q): %v; want an error naming %s", s, err, f.name)
				}
			}
		}
	}
	if floats < 5 {
		t.Errorf("found %d float fields; want dropout, attn_dropout, lr, weight_decay, grad_clip at least", floats)
	}
}

// fieldIndex is the index path of Config's field of JSON name name (in its group).
func fieldIndex(name string) []int {
	for _, f := range reflect.VisibleFields(reflect.TypeOf(Config{})) {
		if n, _, _ := strings.Cut(f.Tag.Get("json"), ","); n == name && !f.Anonymous {
			return f.Index
		}
	}
	panic("no field " + name)
}

// zeroValid are fields for which 0 is a meaningful value (a seed, a rate, "none",
// "keep all", "disabled") that a config must keep as 0, never replace by a default.
var zeroValid = []string{"seed", "dropout", "attn_dropout", "weight_decay", "grad_clip", "patience",
	"warmup_epochs", "pre_mp_layers", "batch_nodes", "eval_chunk_nodes", "sparse_attention_k",
	"max_train", "max_val", "max_test"}

// Every numeric field given 0 either keeps 0 through -set, a YAML file and a
// result.json read back, or is refused by an error naming it; the fields for which 0
// is meaningful all keep it.
func TestZeroConfigValuesKeptOrRefusedByName(t *testing.T) {
	base, err := Preset("demo")
	if err != nil {
		t.Fatal(err)
	}
	kept := map[string]bool{}
	for _, f := range numericFields(t) {
		c, err := ParseSetting(base, f.name+"=0")
		if err != nil {
			if !strings.Contains(err.Error(), f.name) {
				t.Errorf("-set %s=0 refused by %q, which does not name the field", f.name, err)
			}
			continue
		}
		kept[f.name] = true
		if v := fieldValue(c, f.name); v != 0 {
			t.Errorf("-set %s=0 gives %v", f.name, v)
		}
		fromYAML, err := LoadConfig(base, writeFile(t, "c.yaml", f.name+": 0\n"))
		if err != nil || fieldValue(fromYAML, f.name) != 0 {
			t.Errorf("YAML %s: 0 gives %v (%v)", f.name, fieldValue(fromYAML, f.name), err)
		}
		js, err := json.Marshal(map[string]any{"config": c, "seed": c.Seed})
		if err != nil {
			t.Fatal(err)
		}
		again, err := LoadConfig(Config{}, writeFile(t, ResultFile, string(js)))
		if err != nil || fieldValue(again, f.name) != 0 {
			t.Errorf("result.json with %s = 0 reads back %v (%v)", f.name, fieldValue(again, f.name), err)
		}
	}
	for _, name := range zeroValid {
		if !kept[name] {
			t.Errorf("%s = 0 is refused; 0 is a valid %s", name, name)
		}
	}
}

// A run given seed 0 and every other field for which 0 is meaningful trains with them
// and records them: result.json's seed and config, and log.jsonl's header, say 0.
func TestZeroSeedRunsAndIsRecorded(t *testing.T) {
	cfg := tinyConfig()
	for _, name := range zeroValid {
		f := reflect.ValueOf(&cfg).Elem().FieldByIndex(fieldIndex(name))
		f.Set(reflect.Zero(f.Type()))
	}
	dir := t.TempDir()
	ds := tinyGraphDataset(data.GraphClassification, 16, 3)
	res, err := Train(context.Background(), cfg, ds, TrainOptions{OutDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	var rec struct {
		Seed   *uint64 `json:"seed"`
		Config Config  `json:"config"`
	}
	if err := jsonfile.Read(filepath.Join(dir, ResultFile), &rec); err != nil {
		t.Fatal(err)
	}
	if res.Seed != 0 || rec.Seed == nil || *rec.Seed != 0 || rec.Config != cfg {
		t.Errorf("result.json records seed %v and config changes %v; want seed 0 and the config as given", rec.Seed, ConfigChanges(cfg, rec.Config))
	}
	var hdr LogHeader
	if err := json.Unmarshal([]byte(readLines(t, filepath.Join(dir, LogFile))[0]), &hdr); err != nil {
		t.Fatal(err)
	}
	if hdr.Seed != 0 || hdr.Config != cfg {
		t.Errorf("log.jsonl header: seed %d, config changes %v", hdr.Seed, ConfigChanges(cfg, hdr.Config))
	}
	// Seed 0 is a seed like any other: the data a run of seed 0 loads differs from seed 1's.
	if lo := DataOptions(cfg, data.LoadOptions{}); lo.Seed != 0 {
		t.Errorf("DataOptions of seed 0 gives data seed %d", lo.Seed)
	}
	one := cfg
	one.Seed = 1
	if DataOptions(one, data.LoadOptions{Seed: 5}).Seed != 1 {
		t.Errorf("DataOptions does not take the run's seed")
	}
}

// A key given twice — in a YAML file, a JSON file, a nested record, one -set JSON
// object or two -set settings — is refused by an error naming the key (and the line,
// for files), never settled by letting the last one win.
func TestDuplicateConfigKeysRefused(t *testing.T) {
	base, err := Preset("demo")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, text, line string
	}{
		{"c.yaml", "lr: 0.1\nlayers: 2\nlr: 0.2\n", "line 3"},
		{"c.json", "{\"lr\": 0.1,\n \"layers\": 2,\n \"lr\": 0.2}\n", "line 3"},
		{"result.json", "{\"seed\": 1, \"config\": {\"lr\": 0.1,\n \"lr\": 0.2}}\n", "line 2"},
	} {
		path := writeFile(t, tc.name, tc.text)
		_, err := LoadConfig(base, path)
		if err == nil || !strings.Contains(err.Error(), `"lr"`) || !strings.Contains(err.Error(), tc.line) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s with lr twice: %v; want an error naming the file, \"lr\" and %s", tc.name, err, tc.line)
		}
	}
	for _, settings := range [][]string{
		{`{"lr": 0.1, "lr": 0.2}`},
		{"lr=0.1", "lr=0.2"},
		{"lr=0.1", `{"lr": 0.2}`},
		{`{"layers": 2, "lr": 0.1}`, " lr = 0.3"},
	} {
		if _, err := ParseSettings(base, settings); err == nil || !strings.Contains(err.Error(), `"lr"`) {
			t.Errorf("ParseSettings(%q): %v; want an error naming \"lr\"", settings, err)
		}
	}
	c, err := ParseSettings(base, []string{"lr=0.1", "layers=3", `{"heads": 2}`})
	if err != nil || c.LearningRate != 0.1 || c.Layers != 3 || c.Heads != 2 {
		t.Errorf("distinct settings: %+v, %v", c, err)
	}
}

// Records of older versions — a checkpoint or result.json of a full-batch run that
// stored a fanout, unchecked then — still load, as the config that ran: without it.
func TestOlderRecordsWithIdleFanoutStillLoad(t *testing.T) {
	cfg := tinyConfig()
	ds := tinyGraphDataset(data.GraphClassification, 8, 3)
	m, err := NewModel(cfg, ds)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	old := cfg
	old.Fanout = "local=ten" // what -fanout local=ten stored in a full-batch run
	ckpt := filepath.Join(t.TempDir(), LastCheckpointFile)
	if err := saveCheckpoint(ckpt, CheckpointInfo{Config: old, Dataset: ds.Name}, m.store, false); err != nil {
		t.Fatal(err)
	}
	js, err := json.Marshal(map[string]any{"seed": old.Seed, "config": old})
	if err != nil {
		t.Fatal(err)
	}
	result := writeFile(t, ResultFile, string(js))
	for _, path := range []string{ckpt, result} {
		got, err := LoadConfig(Config{}, path)
		if err != nil || got != cfg {
			t.Errorf("LoadConfig(%s): %v, changes %v; want the config without its idle fanout", filepath.Base(path), err, ConfigChanges(cfg, got))
		}
	}
	if info, err := ReadCheckpointInfo(ckpt); err != nil || info.Config != cfg {
		t.Errorf("ReadCheckpointInfo: %v, config changes %v", err, ConfigChanges(cfg, info.Config))
	}
	// A config file (not a record) with a bad fanout is refused, whatever batch_nodes.
	if _, err := LoadConfig(cfg, writeFile(t, "c.yaml", "fanout: local=ten\n")); err == nil || !strings.Contains(err.Error(), "local=ten") {
		t.Errorf("config file with fanout local=ten: %v", err)
	}
}

// A key without a value — YAML's "seed:" or "~", JSON's null, "-set seed=" — is refused
// naming the key, where decoding would have kept the preset's value.
func TestNullConfigValuesRefusedByName(t *testing.T) {
	base, err := Preset("demo")
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{"seed:\n", "layers: 2\nseed: ~\n", "seed: null\n", `{"config": {"seed": null}}`} {
		if _, err := LoadConfig(base, writeFile(t, "c.yaml", text)); err == nil || !strings.Contains(err.Error(), "seed: no value") {
			t.Errorf("config file %q: %v; want an error naming seed", text, err)
		}
	}
	for _, s := range []string{"seed=", "seed=null", "seed=~", `{"seed": null}`} {
		if _, err := ParseSetting(base, s); err == nil || !strings.Contains(err.Error(), "seed: no value") {
			t.Errorf("ParseSetting(%q): %v; want an error naming seed", s, err)
		}
	}
}

// A fanout is checked whenever it is set, full-batch configs included, and a
// full-batch run leaves it out of its recorded config.
func TestFanoutCheckedAlwaysAndDroppedFromFullBatchRuns(t *testing.T) {
	base, err := Preset("demo")
	if err != nil {
		t.Fatal(err)
	}
	for _, spec := range []string{"local=ten", "nosuchtype=3", "local=-2", "local=1/local=2/local=3/local=4/local=5/local=6/local=7/local=8/local=9"} {
		c := base
		c.BatchNodes, c.Fanout = 0, spec
		if err := c.Validate(); err == nil || !strings.Contains(err.Error(), spec) {
			t.Errorf("full-batch config with fanout %q: %v; want an error naming the spec", spec, err)
		}
	}
	cfg := tinyConfig()
	cfg.Fanout = "local=3"
	var log strings.Builder
	res, err := Train(context.Background(), cfg, tinyGraphDataset(data.GraphClassification, 16, 3), TrainOptions{Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	if res.Config.Fanout != "" || !strings.Contains(log.String(), `fanout "local=3" not used`) {
		t.Errorf("full-batch run recorded fanout %q and said %q; want it dropped with a note", res.Config.Fanout, log.String())
	}
}

// readLines returns the lines of the file at path.
func readLines(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		out = append(out, sc.Text())
	}
	return out
}
