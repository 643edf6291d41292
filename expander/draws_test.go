package expander

import (
	"reflect"
	"testing"
)

// drawsBatch returns twelve small graphs (5 to 60 nodes: some take the complete
// fallback, some keep a later attempt than the first) and their options.
func drawsBatch() ([]InputGraph, InteractionOptions) {
	graphs := make([]InputGraph, 12)
	for g := range graphs {
		graphs[g] = randomInput(5+5*g, 0.2, uint64(g))
	}
	o := DefaultInteractionOptions()
	o.VirtualNodes, o.Seed = 2, 7
	return graphs, o
}

func TestDrawsBuildTheBatchesOfBuildBatch(t *testing.T) {
	graphs, o := drawsBatch()
	later := 0
	for _, algo := range []Algorithm{Standard, Simple, Hamiltonian} {
		o.ExpanderAlgo = algo
		want, err := BuildBatch(graphs, o)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range want.Certificates {
			if c.Attempts > 1 {
				later++
			}
		}
		var d Draws
		for round := range 3 {
			got, err := d.BuildBatch(graphs, o)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%v, round %d: the batch built through Draws differs from BuildBatch's", algo, round)
			}
		}
		if got, fallback := d.Len(), 1; got != len(graphs)-fallback {
			t.Fatalf("%v: Draws holds %d expanders, want %d (one per graph but the complete fallback)", algo, got, len(graphs)-fallback)
		}
	}
	if later == 0 {
		t.Fatal("every graph kept its first attempt: the batches do not test a redraw from a later attempt's seed")
	}
}

func TestDrawsRedrawFromTheKeptAttemptSeed(t *testing.T) {
	graphs, o := drawsBatch()
	var d Draws
	first, err := d.BuildBatch(graphs, o)
	if err != nil {
		t.Fatal(err)
	}
	// Replace every kept attempt seed: a batch that still certified would not notice.
	for k, c := range d.kept {
		c.AttemptSeed++
		d.kept[k] = c
	}
	second, err := d.BuildBatch(graphs, o)
	if err != nil {
		t.Fatal(err)
	}
	if reflect.DeepEqual(first.Src, second.Src) && reflect.DeepEqual(first.Dst, second.Dst) {
		t.Fatal("the second batch ignored the kept attempt seeds: Draws certified again")
	}
}
