package gexph

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/gexph/gexph/data"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
)

// Prediction is a model's output for one example: a node (of a transductive graph, or
// of a graph of a node-level graph data set) or a graph.
type Prediction struct {
	// Graph is the graph's index in the data set; Node the node's index in that graph,
	// or −1 for a graph-level prediction.
	Graph int `json:"graph"`
	Node  int `json:"node"`
	// ID is the node's original id, its index in the files it was read from
	// (data.Graph.NodeID: not Node where the loader kept only the largest connected
	// component), or −1 for a graph-level prediction.
	ID int64 `json:"id"`
	// Class is the predicted class of a classification task (−1 otherwise) and Label
	// the true one (−1 where the task has none).
	Class int `json:"class"`
	Label int `json:"label"`
	// Scores are the class probabilities (softmax; for one logit, the probability of
	// class 1 then that of class 0 are P(1) and 1 − P(1): both are given), the
	// per-label probabilities of a multi-label task (sigmoid), or the regression
	// outputs.
	Scores []float64 `json:"scores"`
}

// Predict loads the checkpoint at path and returns its model's predictions for the
// examples of one split of ds, in the split's order (for a node-level graph data set,
// every node of each graph of the split): "train", "val" or "test"; "all", every node of
// a transductive graph (every graph otherwise); or "unlabelled", the nodes of a
// transductive graph that have no label (data.Unlabelled), whose classes a
// semi-supervised user wants to know.
func Predict(ctx context.Context, path string, ds *data.Dataset, split string, opts ModelOptions) ([]Prediction, error) {
	m, ds, _, err := loadCheckpointModel(path, ds, opts)
	if err != nil {
		return nil, err
	}
	defer m.Close()
	idx, err := predictIndices(ds, split)
	if err != nil {
		return nil, err
	}
	var preds []Prediction
	err = m.run.outputs(ctx, ds, [][]int{idx}, func(_ int, out []float32, b *Batch, rows []int) {
		for _, r := range rows {
			gi, v := m.rowExample(b, r)
			var g *data.Graph
			if v >= 0 {
				g = &ds.Graphs[gi]
			}
			preds = append(preds, m.prediction(out, b, r, gi, v, g))
		}
	})
	return preds, err
}

// rowExample returns the graph (its index in the data set) and the node (its index in
// the graph; −1 for a graph-level task) of output row r of batch b.
func (m *Model) rowExample(b *Batch, r int) (graph, node int) {
	if !m.spec.nodeLevel {
		return b.Graphs[r], -1
	}
	i := sort.SearchInts(b.NodeOffset[1:], r+1)
	return b.Graphs[i], r - b.NodeOffset[i]
}

// predictIndices returns the examples Predict predicts for split: a split of ds, "all"
// (every node of a transductive graph, every graph otherwise) or "unlabelled" (the nodes
// of a transductive graph without a label).
func predictIndices(ds *data.Dataset, split string) ([]int, error) {
	var idx []int
	switch split {
	case "all":
		n := len(ds.Graphs)
		if ds.Transductive {
			n = ds.Graphs[0].NumNodes
		}
		for i := range n {
			idx = append(idx, i)
		}
		return idx, nil
	case "unlabelled":
		if !ds.Transductive || ds.Task != data.NodeClassification {
			return nil, fmt.Errorf("predict: split \"unlabelled\": data set %q is not a transductive node classification data set, the only kind with unlabelled nodes", ds.Name)
		}
		for v, y := range ds.Graphs[0].NodeLabels {
			if y == data.Unlabelled {
				idx = append(idx, v)
			}
		}
		return idx, nil
	}
	n, err := data.ParseSplitName(split, "all", "unlabelled")
	if err != nil {
		return nil, fmt.Errorf("predict: %w", err)
	}
	return ds.Split.Part(n), nil
}

// forwardHost runs inference on b and returns its output rows on the host.
func (m *Model) forwardHost(b *Batch) ([]float32, error) {
	outT, err := m.forward(b)
	if err != nil {
		return nil, err
	}
	out := tensors.MustCopyFlatData[float32](outT)
	outT.FinalizeAll()
	return out, nil
}

// prediction turns output row r of a batch into the Prediction of node v of graph gi,
// g (v = −1 and g = nil: the graph).
func (m *Model) prediction(out []float32, b *Batch, r, gi, v int, g *data.Graph) Prediction {
	k := m.spec.outDim
	row := out[r*k : (r+1)*k]
	p := Prediction{Graph: gi, Node: v, ID: -1, Class: -1, Label: -1}
	if g != nil {
		p.ID = g.NodeID(v)
	}
	switch m.spec.task {
	case data.NodeClassification, data.GraphClassification:
		p.Class = int(predictClass(row))
		p.Label = int(b.Labels[r])
		if k == 1 {
			one := sigmoid(float64(row[0]))
			p.Scores = []float64{1 - one, one}
			break
		}
		p.Scores = softmax(row)
	case data.GraphMultiLabel:
		for _, x := range row {
			p.Scores = append(p.Scores, sigmoid(float64(x)))
		}
	default:
		for _, x := range row {
			p.Scores = append(p.Scores, float64(x))
		}
	}
	return p
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// softmax returns the probabilities of logits, computed stably.
func softmax(logits []float32) []float64 {
	mx := math.Inf(-1)
	for _, x := range logits {
		mx = math.Max(mx, float64(x))
	}
	out := make([]float64, len(logits))
	sum := 0.0
	for i, x := range logits {
		out[i] = math.Exp(float64(x) - mx)
		sum += out[i]
	}
	for i := range out {
		out[i] /= sum
	}
	return out
}

// loadCheckpointModel builds the model of the checkpoint at path for ds and loads its
// weights. ds may be the data the run trained on (its split then cut as the checkpoint's
// config says) or any other data whose schema the checkpoint's accepts (used whole,
// its node features converted between dense and sparse to the checkpoint's kind); data
// of another schema is refused, naming what differs.
func loadCheckpointModel(path string, ds *data.Dataset, opts ModelOptions) (*Model, *data.Dataset, *loadedCheckpoint, error) {
	ck, err := readCheckpoint(path)
	if err != nil {
		return nil, nil, nil, err
	}
	if ds == nil {
		return nil, nil, nil, errors.New("evaluate: nil data set")
	}
	if err := ds.ValidateForPrediction(); err != nil {
		return nil, nil, nil, fmt.Errorf("evaluate: %w", err)
	}
	schema, err := ck.schemaFor(path, ds)
	if err != nil {
		return nil, nil, nil, err
	}
	cfg := ck.info.Config
	if ck.trainedOn(ds) {
		ds = subsetSplit(ds, &cfg)
	}
	ds = withNodeFeatureKind(ds, schema.NodeFeatures.Kind)
	opts.schema = &schema
	m, err := NewModelWithOptions(cfg, ds, opts)
	if err != nil {
		return nil, nil, nil, err
	}
	if err := ck.restoreAll(m.store); err != nil {
		m.Close()
		return nil, nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	m.weightsChanged()
	return m, ds, ck, nil
}

// schemaFor returns the checkpoint's schema (recorded, or read from its variables and
// completed by the data's) once it accepts the schema of ds; else an error naming
// each property that differs.
func (ck *loadedCheckpoint) schemaFor(path string, ds *data.Dataset) (Schema, error) {
	have, err := SchemaOf(ds)
	if err != nil {
		return Schema{}, err
	}
	want := schemaFromVariables(ck.vars)
	if ck.info.Schema != nil {
		want = *ck.info.Schema
	}
	if err := want.Accepts(have); err != nil {
		return Schema{}, fmt.Errorf("checkpoint %s does not fit data set %s: %w", path, ds.Name, err)
	}
	return want.completedBy(have), nil
}

// trainedOn tells whether ds is the data the checkpoint's run trained on: the same
// fingerprint (the name, for checkpoints that recorded none).
func (ck *loadedCheckpoint) trainedOn(ds *data.Dataset) bool {
	if ck.info.DatasetFingerprint == "" {
		return ds.Name == ck.info.Dataset
	}
	return ds.Fingerprint() == ck.info.DatasetFingerprint
}

// restoreAll restores the checkpoint's variables into store and checks that it held
// every trainable variable the model has: a model built for other inputs would
// otherwise keep some of its initial weights.
func (ck *loadedCheckpoint) restoreAll(store *model.Store) error {
	if err := ck.restore(store); err != nil {
		return err
	}
	saved := map[string]bool{}
	for _, v := range ck.vars {
		saved[v.Path] = true
	}
	for v := range store.IterVariables() {
		if v.Trainable && !saved[v.Path()] {
			return fmt.Errorf("the checkpoint has no variable %s, which the model needs", v.Path())
		}
	}
	return nil
}

// withNodeFeatureKind returns ds with dense node features made sparse, or sparse ones
// dense, when the checkpoint's model reads the other kind (a shallow copy; ds is not
// modified); ds itself otherwise.
func withNodeFeatureKind(ds *data.Dataset, kind string) *data.Dataset {
	from := map[string]data.FeatureKind{"dense": data.Sparse, "sparse": data.Dense}[kind]
	if from == data.NoFeatures || ds.Graphs[0].Node.Kind != from {
		return ds
	}
	out := *ds
	out.Graphs = slices.Clone(ds.Graphs)
	for i := range out.Graphs {
		f := &out.Graphs[i].Node
		if kind == "dense" {
			*f = f.ToDense()
		} else {
			*f = f.ToSparse()
		}
	}
	return &out
}

// LoadModel builds the model of the checkpoint at path for the data set ds (with the
// checkpoint's config and its limits on the splits) and restores the checkpoint's
// weights. It returns the model and the data set as the model sees it; the caller
// closes the model.
func LoadModel(path string, ds *data.Dataset, opts ModelOptions) (*Model, *data.Dataset, error) {
	m, ds, _, err := loadCheckpointModel(path, ds, opts)
	return m, ds, err
}

// NodeLevel tells whether the model's output rows are nodes (node tasks), not pooled
// graphs.
func (m *Model) NodeLevel() bool { return m.spec.nodeLevel }
