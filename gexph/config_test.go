package gexph

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/gexph/gexph/layers"

	"github.com/gexph/gexph/expander"

	"github.com/gexph/gexph/data"
)

func TestPresetsValidate(t *testing.T) {
	names := PresetNames()
	want := []string{"cifar10", "citeseer", "cluster", "cluster-ref", "coco-sp", "computers", "computers-plus",
		"computers-plus-exphormer", "computers-ref", "computers-tuned", "cora", "cs", "cs-plus", "cs-plus-exphormer", "cs-ref",
		"cs-tuned", "demo", "graph", "large", "malnet-tiny", "mnist", "mnist-ref", "node", "ogbn-arxiv",
		"ogbn-products", "pascalvoc-sp", "pattern", "pattern-ref", "peptides-func", "peptides-func-ref", "peptides-struct",
		"photo", "photo-plus", "photo-plus-exphormer", "photo-ref", "photo-tuned", "physics", "physics-plus",
		"physics-plus-exphormer", "physics-ref", "physics-tuned", "scaling"}
	if !reflect.DeepEqual(names, want) {
		t.Fatalf("PresetNames() = %v, want %v", names, want)
	}
	for _, name := range names {
		c, err := Preset(name)
		if err != nil {
			t.Fatalf("Preset(%q): %v", name, err)
		}
		if err := c.Validate(); err != nil {
			t.Errorf("preset %q does not validate: %v", name, err)
		}
		if c.Preset != name {
			t.Errorf("preset %q has Preset %q", name, c.Preset)
		}
	}
}

// TestPresetTableValues checks presets against the paper's tables 7–9.
func TestPresetTableValues(t *testing.T) {
	type row struct {
		name                    string
		layers, hidden, heads   int
		dropout                 float64
		pe                      string
		batch                   int
		lr                      float64
		epochs, degree, virtual int
		mpnn                    layers.LocalModel
		expanderEdges           bool
	}
	rows := []row{
		{"cifar10", 5, 40, 4, 0.1, PEESLap, 16, 1e-3, 150, 10, 1, layers.LocalGatedGCN, true},
		{"mnist", 5, 40, 4, 0.1, PEESLap, 16, 1e-3, 150, 10, 1, layers.LocalGatedGCN, true},
		{"malnet-tiny", 5, 64, 4, 0, PENone, 16, 5e-4, 150, 0, 4, layers.LocalGatedGCN, false},
		{"pattern", 4, 40, 4, 0, PEESLap, 32, 2e-4, 120, 14, 4, layers.LocalGatedGCN, true},
		{"cluster", 20, 32, 8, 0, PEESLap, 16, 2e-4, 200, 6, 3, layers.LocalGatedGCN, true},
		{"pascalvoc-sp", 4, 96, 8, 0.15, PELap, 32, 5e-4, 300, 14, 0, layers.LocalGatedGCN, true},
		{"coco-sp", 7, 72, 4, 0, PELap, 32, 5e-4, 300, 22, 0, layers.LocalGatedGCN, true},
		{"peptides-func", 8, 64, 4, 0.12, PELap, 128, 3e-4, 200, 0, 1, layers.LocalGatedGCN, false},
		{"peptides-struct", 4, 88, 4, 0.12, PELap, 128, 3e-4, 200, 0, 6, layers.LocalGatedGCN, false},
		{"ogbn-arxiv", 3, 96, 2, 0.3, PENone, 1, 0.01, 600, 6, 0, layers.LocalGCN, true},
		{"computers", 4, 80, 2, 0.4, PENone, 1, 1e-3, 150, 6, 0, layers.LocalGCN, true},
		{"photo", 4, 64, 2, 0.4, PENone, 1, 1e-3, 100, 6, 0, layers.LocalGCN, true},
		{"cs", 4, 72, 2, 0.4, PENone, 1, 1e-3, 70, 6, 0, layers.LocalGCN, true},
		{"physics", 4, 72, 2, 0.4, PENone, 1, 1e-3, 70, 6, 0, layers.LocalGCN, true},
	}
	for _, r := range rows {
		c, err := Preset(r.name)
		if err != nil {
			t.Fatal(err)
		}
		got := row{r.name, c.Layers, c.HiddenDim, c.Heads, c.Dropout, c.PE, c.BatchSize, c.LearningRate, c.Epochs,
			c.ExpanderDegree, c.VirtualNodes, c.MPNN, c.ExpanderEdges}
		if got != r {
			t.Errorf("preset %s:\n got %+v\nwant %+v", r.name, got, r)
		}
		if c.GlobalEdges != (c.VirtualNodes > 0) {
			t.Errorf("preset %s: global_edges %v with %d virtual nodes", r.name, c.GlobalEdges, c.VirtualNodes)
		}
	}
}

// TestReferencePresetsMatchReferenceConfigs checks the *-ref presets against the
// reference code's configs/Exphormer/{computer,photo,cs,physics}.yaml (docs/REFERENCE.md).
func TestReferencePresetsMatchReferenceConfigs(t *testing.T) {
	type ref struct {
		hidden, epochs int
		selfLoops      bool
	}
	for name, r := range map[string]ref{
		"computers-ref": {80, 150, false}, "photo-ref": {64, 100, false},
		"cs-ref": {72, 70, false}, "physics-ref": {72, 70, true},
	} {
		c, err := Preset(name)
		if err != nil {
			t.Fatal(err)
		}
		// gt: GCN+Exphormer, 4 layers, 2 heads, dropout 0.4, batch norm; gnn: one pre-MP
		// layer, one post-MP layer; optim: AdamW, lr 1e-3, weight decay 1e-3, 5 warm-up
		// epochs, clipping; prep: expander degree 6, no virtual nodes.
		if c.MPNN != layers.LocalGCN || c.Attention != layers.GlobalExphormer || c.Layers != 4 || c.Heads != 2 ||
			c.HiddenDim != r.hidden || c.Epochs != r.epochs || c.Dropout != 0.4 || c.AttnDropout != 0 ||
			c.Norm != layers.NormBatch || c.PreMPLayers != 1 || c.HeadLayers != 1 || c.HeadNorm ||
			c.LearningRate != 1e-3 || c.WeightDecay != 1e-3 || c.WarmupEpochs != 5 || c.GradClip != 1 ||
			c.ExpanderDegree != 6 || c.VirtualNodes != 0 || !c.LocalEdges || !c.ExpanderEdges ||
			!c.AllNodes || !c.DoubledEdges || c.SelfLoops != r.selfLoops || !c.ReferenceAttention {
			t.Errorf("preset %s differs from the reference config: %+v", name, c)
		}
	}
}

// TestTunedPresetsAreTheSearchSelections checks the *-tuned presets against the
// settings the search selected (docs/RESULTS.md): the reference preset of the data set
// with the selected MPNN, attention and learning rate.
func TestTunedPresetsAreTheSearchSelections(t *testing.T) {
	for name, want := range map[string]struct {
		ref       string
		mpnn      layers.LocalModel
		attention layers.GlobalModel
		lr        float64
	}{
		"cs-tuned":        {"cs-ref", layers.LocalGCN, layers.GlobalNone, 5e-3},
		"physics-tuned":   {"physics-ref", layers.LocalGCN, layers.GlobalNone, 5e-3},
		"computers-tuned": {"computers-ref", layers.LocalGAT, layers.GlobalNone, 1e-3},
		"photo-tuned":     {"photo-ref", layers.LocalGAT, layers.GlobalNone, 1e-3},
	} {
		c, err := Preset(name)
		if err != nil {
			t.Fatal(err)
		}
		ref, _ := Preset(want.ref)
		if c.MPNN != want.mpnn || c.Attention != want.attention || c.LearningRate != want.lr {
			t.Errorf("%s: mpnn %s, attention %s, lr %g; want %s, %s, %g", name, c.MPNN, c.Attention, c.LearningRate, want.mpnn, want.attention, want.lr)
		}
		c.MPNN, c.Attention, c.LearningRate, c.Preset = ref.MPNN, ref.Attention, ref.LearningRate, ref.Preset
		if !reflect.DeepEqual(c, ref) {
			t.Errorf("%s differs from %s beyond the searched fields:\n%+v\n%+v", name, want.ref, c, ref)
		}
	}
}

func TestPresetUnknown(t *testing.T) {
	_, err := Preset("nope")
	if err == nil || !strings.Contains(err.Error(), `"nope"`) || !strings.Contains(err.Error(), `"pattern"`) {
		t.Fatalf("Preset(nope) error = %v, want the name and the choices", err)
	}
}

// TestPresetDatasetNamesEveryDataSetsPresets holds PresetDataset to the presets' naming:
// every preset of a data set (the data set's name, or the name and a variant after a
// dash) maps to that data set, the generic presets and unknown names to none.
func TestPresetDatasetNamesEveryDataSetsPresets(t *testing.T) {
	generic := map[string]bool{"scaling": true, "large": true, "node": true, "graph": true}
	for _, name := range PresetNames() {
		got, ok := PresetDataset(name)
		switch {
		case generic[name]:
			if ok {
				t.Errorf("PresetDataset(%q) = %q, want none (a generic preset)", name, got)
			}
		case !ok:
			t.Errorf("PresetDataset(%q): none, want its data set", name)
		case name != "demo" && !strings.HasPrefix(name, got):
			t.Errorf("PresetDataset(%q) = %q, not the name's data set", name, got)
		}
	}
	for name, want := range map[string]string{"cs-plus-exphormer": "cs", "computers-ref": "computers", "demo": "pattern", "peptides-func-ref": "peptides-func"} {
		if got, _ := PresetDataset(name); got != want {
			t.Errorf("PresetDataset(%q) = %q, want %q", name, got, want)
		}
	}
	if got, ok := PresetDataset("cs-nothing"); ok {
		t.Errorf("PresetDataset(unknown) = %q, want none", got)
	}
}

func TestPresetIsACopy(t *testing.T) {
	a, _ := Preset("pattern")
	a.Layers = 99
	b, _ := Preset("pattern")
	if b.Layers == 99 {
		t.Fatal("modifying a preset changed the table")
	}
}

func TestValidateErrors(t *testing.T) {
	cases := []struct {
		edit func(c *Config)
		want []string // substrings of the error
	}{
		{func(c *Config) { c.PE = "lap" }, []string{"pe:", `"lap"`, `"eslappe"`}},
		{func(c *Config) { c.MPNN = "pna" }, []string{"mpnn:", `"gatedgcn"`}},
		{func(c *Config) { c.Attention = "dense" }, []string{"attention:", `"exphormer"`, `"bigbird"`}},
		{func(c *Config) { c.ExpanderAlgorithm = expander.Algorithm(7) }, []string{"expander_algorithm:", `"hamiltonian"`}},
		{func(c *Config) { c.Norm = "group" }, []string{"norm:", `"layer"`}},
		{func(c *Config) { c.Pooling = "attention" }, []string{"pooling:", `"max"`}},
		{func(c *Config) { c.Metric = "auc" }, []string{"metric:", `"mae"`}},
		{func(c *Config) { c.Loss = "hinge" }, []string{"loss:", `"bce"`}},
		{func(c *Config) { c.Layers = 0 }, []string{"layers = 0"}},
		{func(c *Config) { c.HiddenDim = -1 }, []string{"hidden_dim"}},
		{func(c *Config) { c.Heads = 3 }, []string{"heads = 3", "hidden_dim = 64"}},
		{func(c *Config) { c.HeadLayers = 0 }, []string{"head_layers"}},
		{func(c *Config) { c.PreMPLayers = -1 }, []string{"pre_mp_layers = -1"}},
		{func(c *Config) { c.BatchSize = 0 }, []string{"batch_size"}},
		{func(c *Config) { c.Epochs = 0 }, []string{"epochs"}},
		{func(c *Config) { c.VirtualNodes = -1 }, []string{"virtual_nodes"}},
		{func(c *Config) { c.Patience = -2 }, []string{"patience"}},
		{func(c *Config) { c.MaxTrain = -1 }, []string{"max_train"}},
		{func(c *Config) { c.Dropout = 1 }, []string{"dropout"}},
		{func(c *Config) { c.AttnDropout = -0.1 }, []string{"attn_dropout"}},
		{func(c *Config) { c.LearningRate = 0 }, []string{"lr"}},
		{func(c *Config) { c.WeightDecay = -1 }, []string{"weight_decay"}},
		{func(c *Config) { c.GradClip = -1 }, []string{"grad_clip"}},
		{func(c *Config) { c.WarmupEpochs = -1 }, []string{"warmup_epochs = -1"}},
		{func(c *Config) { c.MPNN, c.Attention = layers.LocalNone, layers.GlobalNone }, []string{"no layers"}},
		{func(c *Config) { c.LocalEdges, c.ExpanderEdges, c.GlobalEdges = false, false, false }, []string{"interaction graph is empty"}},
		{func(c *Config) { c.ExpanderDegree = 5 }, []string{"expander_degree = 5"}},
		{func(c *Config) { c.VirtualNodes = 0 }, []string{"virtual_nodes = 0"}},
		{func(c *Config) { c.PE, c.PESize = PEESLap, 0 }, []string{"pe_size"}},
		{func(c *Config) { c.PE, c.PESize, c.PEDim = PELap, 8, 64 }, []string{"pe_dim = 64"}},
	}
	for i, tc := range cases {
		c := baseConfig()
		tc.edit(&c)
		err := c.Validate()
		if err == nil {
			t.Errorf("case %d: no error", i)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("case %d: error %q lacks %q", i, err, w)
			}
		}
	}
	c := baseConfig()
	if err := c.Validate(); err != nil {
		t.Fatalf("base config: %v", err)
	}
}

func TestConfigJSONRoundTrip(t *testing.T) {
	for _, name := range PresetNames() {
		c, _ := Preset(name)
		js, err := c.ToJSON()
		if err != nil {
			t.Fatal(err)
		}
		back, err := ParseConfig(Config{}, js)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !reflect.DeepEqual(back, c) {
			t.Errorf("%s: round trip changed the config:\n%+v\n%+v", name, c, back)
		}
	}
	c, _ := Preset("pattern")
	js, _ := c.ToJSON()
	for _, key := range []string{`"hidden_dim": 40`, `"lr": 0.0002`, `"expander_degree": 14`, `"virtual_nodes": 4`, `"attn_dropout"`, `"warmup_epochs"`} {
		if !strings.Contains(js, key) {
			t.Errorf("JSON lacks %s:\n%s", key, js)
		}
	}
}

func TestParseConfigOverridesAndErrors(t *testing.T) {
	base, _ := Preset("pattern")
	c, err := ParseConfig(base, `{"epochs": 3, "seed": 9}`)
	if err != nil {
		t.Fatal(err)
	}
	if c.Epochs != 3 || c.Seed != 9 || c.HiddenDim != 40 {
		t.Errorf("override gave epochs %d seed %d hidden %d", c.Epochs, c.Seed, c.HiddenDim)
	}
	if _, err := ParseConfig(base, `{"hiden_dim": 3}`); err == nil || !strings.Contains(err.Error(), "hiden_dim") {
		t.Errorf("unknown key: error %v", err)
	}
	if _, err := ParseConfig(base, `{"mpnn": "pna"}`); err == nil || !strings.Contains(err.Error(), "mpnn") {
		t.Errorf("bad value: error %v", err)
	}
	if _, err := ParseConfig(base, `{`); err == nil {
		t.Error("truncated JSON: no error")
	}
	dir := t.TempDir()
	if _, err := LoadConfig(base, filepath.Join(dir, "missing.json")); err == nil {
		t.Error("missing file: no error")
	}
	path := filepath.Join(dir, "c.json")
	if err := os.WriteFile(path, []byte(`{"layers": 2}`), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err = LoadConfig(base, path)
	if err != nil || c.Layers != 2 {
		t.Errorf("LoadConfig: %v, layers %d", err, c.Layers)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(PresetNames(), "demo") {
		t.Error("no demo preset")
	}
}

func TestConfigChanges(t *testing.T) {
	a, err := Preset("mnist")
	if err != nil {
		t.Fatal(err)
	}
	if c := ConfigChanges(a, a); len(c) != 0 {
		t.Errorf("a config against itself: %v", c)
	}
	b := a
	b.PESize, b.LearningRate, b.Epochs = 10, 0.003, a.Epochs+1
	want := []string{fmt.Sprintf("epochs: %d → %d", a.Epochs, b.Epochs), "lr: 0.001 → 0.003", "pe_size: 8 → 10"}
	if c := ConfigChanges(a, b); strings.Join(c, "|") != strings.Join(want, "|") {
		t.Errorf("changes %q, want %q", c, want)
	}
	// The run's length may change on resume, and the bound of attention's chunks (the
	// same results); nothing else may.
	b.AttentionChunkMB = 1024
	if c := runChanges(a, b); strings.Join(c, "|") != strings.Join(want[1:], "|") {
		t.Errorf("run changes %q, want %q", c, want[1:])
	}
	if got := ResultChanges(a, b); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("result changes %q, want %q (attention_chunk_mb changes no result)", got, want)
	}
	if got := ConfigChanges(a, b); len(got) != len(want)+1 {
		t.Errorf("config changes %q, want %q and attention_chunk_mb", got, want)
	}
	// A field left out of one side's JSON when empty still counts, on either side.
	c := a
	c.SplitFile = "s.npz"
	if got, want := ConfigChanges(a, c), `split_file: (unset) → "s.npz"`; strings.Join(got, "|") != want {
		t.Errorf("a split file set: changes %q, want %q", got, want)
	}
	if got, want := ConfigChanges(c, a), `split_file: "s.npz" → (unset)`; strings.Join(got, "|") != want {
		t.Errorf("a split file unset: changes %q, want %q", got, want)
	}
}

// A config read from an endless stream or an oversized file fails at once, naming the
// file and MaxConfigBytes, instead of reading until memory runs out.
func TestLoadConfigRefusesEndlessStreamsAndHugeFiles(t *testing.T) {
	base, err := Preset("demo")
	if err != nil {
		t.Fatal(err)
	}
	paths := []string{}
	if _, err := os.Stat("/dev/zero"); err == nil {
		paths = append(paths, "/dev/zero")
	}
	huge := filepath.Join(t.TempDir(), "huge.yaml")
	if err := os.WriteFile(huge, []byte("layers: 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(huge, 1<<40); err == nil { // sparse: no disk used
		paths = append(paths, huge)
	}
	for _, p := range paths {
		_, err := LoadConfig(base, p)
		if err == nil || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), "16777216 bytes a config file may have") {
			t.Errorf("LoadConfig(%s): %v, want a refusal naming the file and the bound", p, err)
		}
	}
}

// TestReferenceCodePresetsChangeOnlyTheReferenceSettings checks that each NAME-ref
// preset is NAME with exactly the settings under which gexph and the paper's code
// compute the same outputs and gradients (docs/REFERENCE.md; tools/pyg/equal_budget.sh
// sets the same).
func TestReferenceCodePresetsChangeOnlyTheReferenceSettings(t *testing.T) {
	common := []string{"attn_dropout", "preset", "reference_attention", "reference_virtual_nodes", "torch_init"}
	for base, extra := range map[string][]string{
		"pattern":       {"head_l2norm", "weight_decay"},
		"cluster":       {"dropout", "epochs", "head_l2norm"},
		"mnist":         {"head_l2norm"},
		"peptides-func": {"head_layers", "warmup_epochs"},
	} {
		a, b := mustPreset(base), mustPreset(base+"-ref")
		var got []string
		for _, change := range ConfigChanges(a, b) {
			got = append(got, strings.SplitN(change, ":", 2)[0])
		}
		want := append(append([]string(nil), common...), extra...)
		sort.Strings(want)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s-ref changes %v, want %v", base, ConfigChanges(a, b), want)
		}
		if b.AttnDropout != 0 || !b.TorchInit || !b.ReferenceAttention || !b.ReferenceVirtualNodes {
			t.Errorf("%s-ref: %+v", base, b)
		}
	}
}

// mustPreset is Preset for a name known to exist.
func mustPreset(name string) Config {
	c, err := Preset(name)
	if err != nil {
		panic(err)
	}
	return c
}

// Config is a few groups and its preset's name: at most 8 top-level fields, each an
// embedded group (a struct) or the name; its JSON stays flat (every key of a group at
// the top level, none twice), as every config file and checkpoint has it.
func TestConfigIsGroupsWithFlatKeys(t *testing.T) {
	ct := reflect.TypeOf(Config{})
	if ct.NumField() > 8 {
		t.Errorf("Config has %d top-level fields, want at most 8 groups and names", ct.NumField())
	}
	for i := range ct.NumField() {
		f := ct.Field(i)
		if !(f.Anonymous && f.Type.Kind() == reflect.Struct) && f.Name != "Preset" {
			t.Errorf("Config.%s is neither a group nor the preset's name", f.Name)
		}
	}
	cfg, err := Preset("pattern")
	if err != nil {
		t.Fatal(err)
	}
	cfg.SplitFile = "split.npz" // Left out of the JSON when empty, as is the next.
	cfg.AttentionChunkMB = 512
	js, err := cfg.ToJSON()
	if err != nil {
		t.Fatal(err)
	}
	var flat map[string]any
	if err := json.Unmarshal([]byte(js), &flat); err != nil {
		t.Fatal(err)
	}
	for k, v := range flat {
		if _, nested := v.(map[string]any); nested {
			t.Errorf("key %q holds an object: the groups must not show in the JSON", k)
		}
	}
	leaves := 0
	for _, f := range reflect.VisibleFields(ct) {
		if !f.Anonymous {
			leaves++
		}
	}
	if len(flat) != leaves {
		t.Errorf("%d JSON keys for %d fields: a key is missing or given twice", len(flat), leaves)
	}
}

// A config's split_file reaches the data options of its runs and of evaluation on its
// checkpoint (DataOptions), unless the caller names another file.
func TestConfigSplitFileReachesDataOptions(t *testing.T) {
	var cfg Config
	if err := json.Unmarshal([]byte(`{"preset": "computers-plus", "split_file": "/data/amazon-computer_split.npz"}`), &cfg); err != nil {
		t.Fatal(err)
	}
	if got := DataOptions(cfg, data.LoadOptions{}).SplitFile; got != "/data/amazon-computer_split.npz" {
		t.Errorf("DataOptions: split file %q, want the config's", got)
	}
	if got := DataOptions(cfg, data.LoadOptions{SplitFile: "other.json"}).SplitFile; got != "other.json" {
		t.Errorf("DataOptions with the caller's file: %q, want other.json", got)
	}
}
