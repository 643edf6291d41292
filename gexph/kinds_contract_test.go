package gexph

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/gexph/gexph/data"
	"github.com/gexph/gexph/layers"
)

// kindConfigs returns one small config per local model (with Exphormer attention and
// alone) and per global model (alone), named after them, and the same for block classic
// (the local models it takes, with the linear residual; "classic/…"): the contract below
// runs on each, so a new kind is checked as soon as layers lists it.
func kindConfigs() map[string]Config {
	out := map[string]Config{}
	for _, l := range layers.LocalModels() {
		if !l.PassesMessages() {
			continue
		}
		for _, g := range []layers.GlobalModel{layers.GlobalExphormer, layers.GlobalNone} {
			c := tinyConfig()
			c.Layers, c.MPNN, c.Attention, c.PE = 2, l, g, PENone
			out[fmt.Sprintf("%s+%s", l, g)] = c
		}
	}
	for _, g := range layers.GlobalModels() {
		if !g.Attends() {
			continue
		}
		c := tinyConfig()
		c.Layers, c.MPNN, c.Attention, c.PE = 2, layers.LocalNone, g, PENone
		out[fmt.Sprintf("none+%s", g)] = c
	}
	for _, l := range layers.LocalModels() {
		for _, g := range []layers.GlobalModel{layers.GlobalExphormer, layers.GlobalNone} {
			c := tinyConfig()
			c.Layers, c.MPNN, c.Attention, c.PE = 2, l, g, PENone
			c.Block, c.LinearResidual, c.Norm, c.MPNNHeads = layers.BlockClassic, true, layers.NormLayer, 1
			c.GlobalEdges, c.VirtualNodes = false, 0
			if c.Validate() == nil { // the local models block classic takes
				out[fmt.Sprintf("classic/%s+%s", l, g)] = c
			}
		}
	}
	return out
}

// TestEveryKindKeepsTheContract runs every local and global model through the same
// checks: finite outputs of the right shape, a finite gradient for every trainable
// variable and a non-zero one for the kind's own, the same outputs and gradients with
// and without padding, and — for the kinds that say they run on parts of a graph —
// layer-wise inference equal to the whole graph's forward pass.
func TestEveryKindKeepsTheContract(t *testing.T) {
	graphs := tinyGraphDataset(data.GraphClassification, 8, 3)
	for name, cfg := range kindConfigs() {
		t.Run(name, func(t *testing.T) {
			a := newTestModel(t, cfg, graphs, "none")
			ids := plannedBatch(a, graphs)
			ba, err := a.BuildBatch(graphs, ids, nil)
			if err != nil {
				t.Fatal(err)
			}
			outA, err := a.Predict(ba)
			if err != nil {
				t.Fatal(err)
			}
			if len(outA) != ba.Rows*a.spec.outDim || !allFinite(outA) {
				t.Fatalf("outputs: %d values (want %d), finite %v", len(outA), ba.Rows*a.spec.outDim, allFinite(outA))
			}
			ga := gradients(t, a, ba)
			// Padded to powers of two, and to the shape a plan gives the batch.
			for _, padding := range []string{"pow2", "plan"} {
				p := newTestModel(t, cfg, graphs, padding)
				bp, err := p.BuildBatch(graphs, ids, nil)
				if err != nil {
					t.Fatal(err)
				}
				if padding == "plan" {
					checkPlanned(t, bp, p.plan.train.levels)
				}
				outP, err := p.Predict(bp)
				if err != nil {
					t.Fatal(err)
				}
				if d := relDiff(outA, outP); d > 1e-5 {
					t.Errorf("%s padding changes the outputs by %.3g", padding, d)
				}
				checkKindGradients(t, cfg, ga, gradients(t, p, bp), padding)
			}
			if cfg.MPNN.KeepsEdgeStates() || !cfg.Attention.RunsOnParts() {
				return
			}
			checkLayerwise(t, cfg)
		})
	}
}

// checkKindGradients checks the gradients of an unpadded (ga) and a padded (gp) model.
func checkKindGradients(t *testing.T, cfg Config, ga, gp map[string][]float32, padding string) {
	t.Helper()
	own := false
	for name, g := range ga {
		if !allFinite(g) {
			t.Errorf("gradient of %s is not finite", name)
		}
		if d := relDiff(g, gp[name]); d > 1e-5 {
			t.Errorf("%s padding changes the gradient of %s by %.3g", padding, name, d)
		}
		kindScope := (cfg.MPNN.PassesMessages() && strings.Contains(name, "/local/")) ||
			(cfg.Attention.Attends() && strings.Contains(name, "/attention/"))
		if kindScope && maxAbs(g) > 0 {
			own = true
		}
	}
	if !own {
		t.Errorf("no variable of %s/%s has a non-zero gradient (variables: %d)", cfg.MPNN, cfg.Attention, len(ga))
	}
}

// checkLayerwise compares layer-wise inference with the whole graph's forward pass on
// a small transductive graph, after a few steps.
func checkLayerwise(t *testing.T, cfg Config) {
	t.Helper()
	ds := tinyTransductiveDataset(4)
	cfg.EvalChunkNodes = 16 // several chunks per layer
	m := newTestModel(t, cfg, ds, "")
	train, err := m.transductiveBatch(ds, true)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := m.TrainStep(train); err != nil {
			t.Fatal(err)
		}
	}
	b, err := m.transductiveBatch(ds, false)
	if err != nil {
		t.Fatal(err)
	}
	full, err := m.Predict(b)
	if err != nil {
		t.Fatal(err)
	}
	lw, err := m.LayerwiseOutputs(context.Background(), ds)
	if err != nil {
		t.Fatal(err)
	}
	if d := relDiff(full, lw); d > 1e-5 {
		t.Errorf("layer-wise inference differs from the whole graph's by %.3g", d)
	}
}

func allFinite(xs []float32) bool {
	for _, x := range xs {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return false
		}
	}
	return true
}

func maxAbs(xs []float32) float64 {
	m := 0.0
	for _, x := range xs {
		m = math.Max(m, math.Abs(float64(x)))
	}
	return m
}
