package bench

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/gexph/gexph/gexph"
	"github.com/gomlx/compute/gobackend"
)

// count returns the operations of kind in a census.
func count(c *gexph.Census, kind string) int {
	for _, k := range c.ByKind {
		if k.Kind == kind {
			return k.Count
		}
	}
	return 0
}

// The census is a function of the model and the batch: the same twice; a second GPS
// layer adds gathers and scatters to both programs; the training step holds the
// inference pass and its gradients, so more of everything; the batch's input arrays
// and the outputs copied back are what a step transfers.
func TestCensusCountsTheProgramsOfTheModel(t *testing.T) {
	cfg := ModelBenchConfig{Preset: "demo", Set: `{"layers":1,"hidden_dim":8,"heads":2}`, Batch: 4}
	one, err := RunCensus(cfg)
	if err != nil {
		t.Fatal(err)
	}
	again, err := RunCensus(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(one, again) {
		t.Fatal("two censuses of the same model and batch differ")
	}
	cfg.Set = `{"layers":2,"hidden_dim":8,"heads":2}`
	two, err := RunCensus(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range []string{"Gather", "ScatterSum"} {
		for _, p := range []struct{ one, two *gexph.Census }{{one.Train, two.Train}, {one.Inference, two.Inference}} {
			if count(p.two, kind) <= count(p.one, kind) {
				t.Errorf("%s: %d %s ops with two layers, %d with one", p.one.Program, count(p.two, kind), kind, count(p.one, kind))
			}
		}
	}
	tr, inf := one.Train, one.Inference
	if tr.Ops <= inf.Ops || count(tr, "DotGeneral") <= count(inf, "DotGeneral") {
		t.Errorf("train step %d ops (%d products), inference %d (%d): the step has the backward pass too", tr.Ops, count(tr, "DotGeneral"), inf.Ops, count(inf, "DotGeneral"))
	}
	if tr.Transfers.HostToDevice != inf.Transfers.HostToDevice || tr.Transfers.HostToDevice == 0 ||
		tr.Transfers.DeviceToHost != 2 || inf.Transfers.DeviceToHost != 1 || tr.Transfers.Variables == 0 {
		t.Errorf("transfers: train %+v, inference %+v", tr.Transfers, inf.Transfers)
	}
	if len(tr.Indexed) == 0 || tr.Indexed[0].Count == 0 {
		t.Errorf("no gathers or scatters listed: %+v", tr.Indexed)
	}
}

// The committed censuses of the generated presets (docs/results/census, `make census`)
// are those of today's model: a change to the programs a GPU runs shows in the diff of
// those files, here first.
func TestCommittedCensusIsCurrent(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the PATTERN and CLUSTER models")
	}
	for _, preset := range []string{"pattern", "cluster"} {
		path := filepath.Join("..", "..", "docs", "results", "census", preset+".json")
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var want CensusResult
		if err := json.Unmarshal(raw, &want); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		got, err := RunCensus(ModelBenchConfig{Preset: preset})
		if err != nil {
			t.Fatal(err)
		}
		if gobackend.Float32Lanes() != 16 { // the pure-Go fusions were counted with AVX-512
			for _, c := range []*gexph.Census{got.Train, got.Inference, want.Train, want.Inference} {
				c.Fusions = nil
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s is not the census of today's %s model (train step %d ops, committed %d; inference %d, committed %d): run `make census` and commit the files",
				path, preset, got.Train.Ops, want.Train.Ops, got.Inference.Ops, want.Inference.Ops)
		}
	}
}
