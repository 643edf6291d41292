package gexph

import (
	"fmt"
	"strings"

	"github.com/gexph/gexph/data"
)

// Schema is what a model needs of its data: the task, the node and edge features and
// the outputs. A checkpoint records its model's schema (CheckpointInfo.Schema); any data
// set whose schema the checkpoint's accepts (Schema.Accepts) can be evaluated and
// predicted on, not only the data the model was trained on. Positional encodings are
// computed from each graph as the checkpoint's config says, so they are no part of it.
type Schema struct {
	// Task is a data.Task's name; "" in the schema of a checkpoint of an older version,
	// whose task was not recorded (see schemaFromVariables).
	Task string `json:"task"`
	// Classes counts the classes of a classification task, or the labels or targets per
	// graph; Outputs the model's outputs per row (1 for two classes: one logit).
	Classes int `json:"classes"`
	Outputs int `json:"outputs"`
	// NodeFeatures and EdgeFeatures describe the inputs.
	NodeFeatures FeatureSchema `json:"node_features"`
	EdgeFeatures FeatureSchema `json:"edge_features"`
	// Unlabelled marks the schema of data without labels (data.Dataset.Unlabelled): its
	// Task gives only the level, node or graph.
	Unlabelled bool `json:"unlabelled,omitempty"`
}

// FeatureSchema describes a feature matrix: its kind ("none", "dense", "sparse",
// "categorical"), its columns and, for categorical features, each column's number of
// codes (the rows of its embedding table in a model).
type FeatureSchema struct {
	Kind        string `json:"kind"`
	Cols        int    `json:"cols"`
	Cardinality []int  `json:"cardinality,omitempty"`
}

// SchemaOf returns the schema of ds: what a model trained on it needs.
func SchemaOf(ds *data.Dataset) (Schema, error) {
	s, err := describeData(ds)
	if err != nil {
		return Schema{}, err
	}
	sc := s.schema()
	sc.Unlabelled = ds.Unlabelled
	return sc, nil
}

// schema returns the spec's schema.
func (s *dataSpec) schema() Schema {
	out := Schema{Task: s.task.String(), Classes: s.numClasses, Outputs: s.outDim,
		NodeFeatures: s.node.schema(), EdgeFeatures: s.edge.schema()}
	if out.Outputs == 0 { // before setOutputs: what it would set
		c := *s
		if c.setOutputs() == nil {
			out.Outputs = c.outDim
		}
	}
	return out
}

// schema describes the features.
func (f *featSpec) schema() FeatureSchema {
	kind := map[data.FeatureKind]string{data.NoFeatures: "none", data.Dense: "dense", data.Sparse: "sparse", data.Categorical: "categorical"}[f.kind]
	return FeatureSchema{Kind: kind, Cols: f.cols, Cardinality: append([]int(nil), f.card...)}
}

// adopt makes the spec the checkpoint's where the data may differ: the task of an
// unlabelled data set, the classes, and the embedding tables of categorical features.
func (s *dataSpec) adopt(ck Schema) {
	if t, err := data.ParseTask(ck.Task); err == nil {
		s.task = t
	}
	s.numClasses = ck.Classes
	if ck.NodeFeatures.Kind == "categorical" {
		s.node.card = append([]int(nil), ck.NodeFeatures.Cardinality...)
	}
	if ck.EdgeFeatures.Kind == "categorical" {
		s.edge.card = append([]int(nil), ck.EdgeFeatures.Cardinality...)
	}
}

// classification tells whether a task's name is a classification task's.
func classification(task string) bool {
	return task == data.NodeClassification.String() || task == data.GraphClassification.String()
}

// nodeLevel tells whether a task's name predicts per node.
func nodeLevel(task string) bool { return task == data.NodeClassification.String() }

// completedBy fills what a schema read from an older checkpoint's variables lacks (the
// task, hence the classes) from the data's schema d: the task is taken as d's, and one
// output of a classification task is two classes.
func (s Schema) completedBy(d Schema) Schema {
	if s.Task != "" {
		return s
	}
	s.Task, s.Classes = d.Task, s.Outputs
	if classification(s.Task) && s.Outputs == 1 {
		s.Classes = 2
	}
	return s
}

// Accepts returns nil when a model of schema s can run on data of schema d, else an
// error naming each property that differs with both values ("node features: the
// checkpoint has 1433 columns, the data has 3703"). The data may have fewer classes
// (labels the model knows) and smaller categorical codes (rows of its tables) than the
// model; everything else must be the same. An unlabelled data set matches any task of
// its level.
func (s Schema) Accepts(d Schema) error {
	s = s.completedBy(d)
	var diffs []string
	add := func(format string, args ...any) { diffs = append(diffs, fmt.Sprintf(format, args...)) }
	switch {
	case nodeLevel(s.Task) != nodeLevel(d.Task):
		add("task: the checkpoint has %s (%s), the data has %s (%s)", s.Task, levelOf(s.Task), d.Task, levelOf(d.Task))
	case !d.Unlabelled && s.Task != d.Task:
		add("task: the checkpoint has %s, the data has %s", s.Task, d.Task)
	case d.Unlabelled:
	case classification(s.Task) && d.Classes > s.Classes:
		add("classes: the checkpoint has %d, the data has %d", s.Classes, d.Classes)
	case !classification(s.Task) && d.Classes != s.Classes:
		add("targets per graph: the checkpoint has %d, the data has %d", s.Classes, d.Classes)
	}
	diffs = append(diffs, s.NodeFeatures.differences("node features", d.NodeFeatures)...)
	diffs = append(diffs, s.EdgeFeatures.differences("edge features", d.EdgeFeatures)...)
	if len(diffs) > 0 {
		return fmt.Errorf("%s", strings.Join(diffs, "; "))
	}
	return nil
}

// levelOf says what a task predicts per.
func levelOf(task string) string {
	if nodeLevel(task) {
		return "one prediction per node"
	}
	return "one per graph"
}

// numeric tells whether features of a kind are numbers (dense or sparse, which convert
// into each other), not codes.
func numeric(kind string) bool { return kind == "dense" || kind == "sparse" }

// differences lists how data features d differ from the checkpoint's f, named what.
func (f FeatureSchema) differences(what string, d FeatureSchema) []string {
	switch {
	case f.Kind != d.Kind && !(numeric(f.Kind) && numeric(d.Kind)):
		return []string{fmt.Sprintf("%s: the checkpoint has %s, the data has %s", what, f.describe(), d.describe())}
	case f.Cols != d.Cols:
		return []string{fmt.Sprintf("%s: the checkpoint has %d columns, the data has %d", what, f.Cols, d.Cols)}
	}
	var out []string
	for c := range min(len(f.Cardinality), len(d.Cardinality)) {
		if d.Cardinality[c] > f.Cardinality[c] {
			out = append(out, fmt.Sprintf("%s column %d: the data has codes up to %d, the checkpoint's table has %d", what, c, d.Cardinality[c]-1, f.Cardinality[c]))
		}
	}
	return out
}

// describe names the kind and width of features.
func (f FeatureSchema) describe() string {
	if f.Kind == "none" || f.Kind == "" {
		return "none"
	}
	return fmt.Sprintf("%s (%d columns)", f.Kind, f.Cols)
}

// String is a one-line description: "graph-classification with 10 classes; node
// features dense (7 columns); edge features none".
func (s Schema) String() string {
	task := s.Task
	if task == "" {
		task = "a task not recorded"
	}
	outputs := fmt.Sprintf(" with %d classes", s.Classes)
	switch {
	case s.Unlabelled:
		outputs = ", unlabelled"
	case !classification(s.Task):
		outputs = fmt.Sprintf(" with %d targets", s.Classes)
	}
	return fmt.Sprintf("%s%s; node features %s; edge features %s", task, outputs, s.NodeFeatures.describe(), s.EdgeFeatures.describe())
}

// schemaFromVariables reads the schema of a checkpoint written before schemas were
// recorded from its variables: the encoders' tables and weights give the features, the
// head's output layer the outputs. The task is not in them ("": Accepts takes the
// data's).
func schemaFromVariables(vars []savedVariable) Schema {
	s := Schema{NodeFeatures: FeatureSchema{Kind: "none"}, EdgeFeatures: FeatureSchema{Kind: "none"}}
	for _, v := range vars {
		if len(v.Dimensions) != 2 {
			continue
		}
		rows, cols := v.Dimensions[0], v.Dimensions[1]
		for _, enc := range []struct {
			prefix string
			f      *FeatureSchema
		}{{"/node_encoder/", &s.NodeFeatures}, {"/edge_encoder/", &s.EdgeFeatures}} {
			rest, ok := strings.CutPrefix(v.Path, enc.prefix)
			if !ok {
				continue
			}
			c, column := tableColumn(rest)
			switch {
			case rest == "dense/weights":
				*enc.f = FeatureSchema{Kind: "dense", Cols: rows}
			case rest == "weights":
				*enc.f = FeatureSchema{Kind: "sparse", Cols: rows}
			case column:
				enc.f.Kind = "categorical"
				for len(enc.f.Cardinality) <= c {
					enc.f.Cardinality = append(enc.f.Cardinality, 0)
				}
				enc.f.Cardinality[c], enc.f.Cols = rows, len(enc.f.Cardinality)
			}
		}
		if v.Path == "/head/output/dense/weights" {
			s.Outputs = cols
		}
	}
	return s
}

// tableColumn reads the column of a categorical encoder's table variable,
// "column_C/embeddings".
func tableColumn(path string) (int, bool) {
	var c int
	n, err := fmt.Sscanf(path, "column_%d/embeddings", &c)
	return c, err == nil && n == 1 && path == fmt.Sprintf("column_%d/embeddings", c)
}
