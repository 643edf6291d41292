package gexph

import (
	"errors"
	"fmt"
	"runtime"
	"slices"

	"github.com/gexph/gexph/data"
	"github.com/gexph/gexph/expander"
	"github.com/gexph/gexph/gexph/posenc"
	"github.com/gexph/gexph/internal/sysinfo"
	"github.com/gexph/gexph/layers"
	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX graph building reads best dot-imported.
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
)

// BigBird pattern sizes (GraphGPS's defaults).
const (
	bigBirdBlockSize    = 3
	bigBirdRandomBlocks = 3
)

// featSpec describes a data set's node or edge features.
type featSpec struct {
	kind data.FeatureKind
	cols int
	card []int
	// rows and nnz total the rows and stored values over the data set's graphs.
	rows, nnz int
}

// dataSpec is what the model needs to know about a data set.
type dataSpec struct {
	name         string
	task         data.Task
	numClasses   int
	numTargets   int // multi-label and regression outputs per graph
	outDim       int // model outputs per row (1 for binary classification)
	nodeLevel    bool
	transductive bool
	node, edge   featSpec
}

// newDataSpec inspects ds and checks that every graph has features of the same kind
// and width; a model of a checkpoint (schema not nil) takes the checkpoint's outputs and
// embedding tables instead of those of ds (Schema.Accepts has checked that they fit).
func newDataSpec(ds *data.Dataset, schema *Schema) (dataSpec, error) {
	s, err := describeData(ds)
	if err != nil {
		return s, err
	}
	if schema != nil {
		s.adopt(*schema)
	}
	return s, s.setOutputs()
}

// describeData returns what ds's graphs say of the model's inputs and task, before the
// outputs are checked.
func describeData(ds *data.Dataset) (dataSpec, error) {
	if ds == nil || len(ds.Graphs) == 0 {
		return dataSpec{}, errors.New("model: empty data set")
	}
	s := dataSpec{name: ds.Name, task: ds.Task, numClasses: ds.NumClasses, transductive: ds.Transductive}
	merge := func(what string, dst *featSpec, f *data.Features, gi int) error {
		dst.rows += f.Rows
		dst.nnz += len(f.Indices)
		if gi == 0 {
			dst.kind, dst.cols = f.Kind, f.Cols
			if f.Kind == data.Categorical {
				dst.card = append([]int(nil), f.Cardinality...)
			}
			if f.Kind == data.NoFeatures {
				dst.cols = 0
			}
			return nil
		}
		if f.Kind != dst.kind || (f.Kind != data.NoFeatures && f.Cols != dst.cols) {
			return fmt.Errorf("model: data set %q: graph %d has %s of kind %d width %d, graph 0 of kind %d width %d",
				ds.Name, gi, what, f.Kind, f.Cols, dst.kind, dst.cols)
		}
		for c := range dst.card {
			dst.card[c] = max(dst.card[c], f.Cardinality[c])
		}
		return nil
	}
	for gi := range ds.Graphs {
		if err := merge("node features", &s.node, &ds.Graphs[gi].Node, gi); err != nil {
			return s, err
		}
		if err := merge("edge features", &s.edge, &ds.Graphs[gi].Edge, gi); err != nil {
			return s, err
		}
	}
	return s, nil
}

// setOutputs sets the model's outputs per row from the task and its classes or
// targets, and which rows it predicts (nodes or graphs).
func (s *dataSpec) setOutputs() error {
	switch s.task {
	case data.NodeClassification, data.GraphClassification:
		if s.numClasses < 2 {
			return fmt.Errorf("model: data set %q: %d classes, want ≥ 2", s.name, s.numClasses)
		}
		s.outDim = s.numClasses
		if s.numClasses == 2 {
			s.outDim = 1 // one logit, as GraphGym does for binary tasks
		}
		s.nodeLevel = s.task == data.NodeClassification
	case data.GraphMultiLabel, data.GraphRegression:
		if s.numClasses < 1 {
			return fmt.Errorf("model: data set %q: %d targets, want ≥ 1", s.name, s.numClasses)
		}
		s.numTargets, s.outDim = s.numClasses, s.numClasses
	default:
		return fmt.Errorf("model: data set %q: task %s is not supported", s.name, s.task)
	}
	return nil
}

// defaultLoss returns the loss used when Config.Loss is empty.
func defaultLoss(task data.Task) string {
	switch task {
	case data.GraphMultiLabel:
		return LossBCE
	case data.GraphRegression:
		return LossL1
	}
	return LossCrossEntropy
}

// checkLossAndMetric rejects a loss or metric that does not fit the task.
func checkLossAndMetric(cfg *Config, task data.Task) (string, error) {
	loss := cfg.Loss
	if loss == "" {
		loss = defaultLoss(task)
	}
	classes := task == data.NodeClassification || task == data.GraphClassification
	switch {
	case classes && loss != LossCrossEntropy && loss != LossWeightedCrossEntropy:
		return "", fmt.Errorf("config: loss %q does not fit task %s (want %q or %q)", loss, task, LossCrossEntropy, LossWeightedCrossEntropy)
	case task == data.GraphMultiLabel && loss != LossBCE:
		return "", fmt.Errorf("config: loss %q does not fit task %s (want %q)", loss, task, LossBCE)
	case task == data.GraphRegression && loss != LossL1 && loss != LossMSE:
		return "", fmt.Errorf("config: loss %q does not fit task %s (want %q or %q)", loss, task, LossL1, LossMSE)
	}
	okMetric := map[data.Task][]string{
		data.NodeClassification:  {MetricAccuracy, MetricWeightedAccuracy, MetricMacroF1},
		data.GraphClassification: {MetricAccuracy, MetricWeightedAccuracy, MetricMacroF1},
		data.GraphMultiLabel:     {MetricAP},
		data.GraphRegression:     {MetricMAE},
	}[task]
	for _, name := range okMetric {
		if name == cfg.Metric {
			return loss, nil
		}
	}
	return "", fmt.Errorf("config: metric %q does not fit task %s (choices: %s)", cfg.Metric, task, quoteList(okMetric))
}

// ModelOptions selects where a model runs.
type ModelOptions struct {
	// Backend is a backend spec for NewBackend ("" is the pure-Go backend).
	Backend string
	// Padding is the batch padding (see TrainOptions.Padding; "" picks by data set).
	Padding string
	// LayerGraphs, for a transductive data set and Exphormer attention, makes layer l
	// attend only over LayerGraphs.Edges[l] of the interaction graph LayerGraphs.H
	// (Spexphormer's second stage; see AttentionScores.Sparsify). Such a model's batches
	// have one padding node.
	LayerGraphs *LayerGraphs
	// Float64 computes in float64: variables, inputs and every operation, with the
	// outputs and gradients handed back as float32. It is a reference for float32
	// backends (compare.Options.ReferenceFloat64), not a training mode.
	Float64 bool
	// Prefetch is the number of batches of graphs built ahead of the step (or inference
	// pass) that uses them, on a goroutine of their own: 0 takes DefaultPrefetch of the
	// backend, a negative number none. The batches are the same whatever it is.
	Prefetch int
	// schema, when not nil, is the schema of the checkpoint the model is built for: its
	// outputs and embedding tables are the checkpoint's, not the data set's.
	schema *Schema
}

// Model is an Exphormer (GraphGPS) model for one data set: the configuration, what it
// knows of the data set, the backend it runs on and the GoMLX store of its variables.
// Build one with NewModel; Train builds its own.
type Model struct {
	cfg         Config
	spec        dataSpec
	loss        string
	backend     compute.Backend
	backendName string
	// padding pads the batches of training steps (and of Model.BuildBatch), evalPadding
	// those of evaluation and prediction; nil keeps exact shapes. They differ only with
	// a plan, which is kept in plan.
	padding, evalPadding *padding
	plan                 *shapePlan
	// paddingName is the padding's name ("plan", "none", …: the default resolved).
	paddingName string
	// compiles counts the programs compiled (see CompileStats).
	compiles    compileLog
	interaction expander.InteractionOptions
	// draws remembers each graph's certified expander: batches of later epochs draw
	// it again without certifying it again.
	draws expander.Draws
	// run is the model's way of running (run.go).
	run runner
	// sp samples the mini-batches and the chunks of layer-wise inference of a
	// transductive data set, built on first use.
	sp *sampler
	// dtype is the dtype the model computes in (ModelOptions.Float64).
	dtype dtypes.DType
	// prefetch is ModelOptions.Prefetch.
	prefetch   int
	numVirtual int
	// densify feeds sparse node features as a dense matrix (see NewModelWithOptions).
	densify bool
	pe      *posenc.Cache
	store   *model.Store
	// presence records which input fields the model's batches carry (set by the first
	// batch; later batches must match).
	presence     []bool
	params       int
	trainExec    *model.Exec
	evalExec     *model.Exec
	evalIsCached bool
	// Input shapes compiled by trainExec and evalExec.
	trainShapes, evalShapes map[string]bool
}

// maxCompiledShapes bounds the shapes an executor compiles before it is rebuilt (GoMLX
// refuses new shapes beyond its cache size of 32).
const maxCompiledShapes = 32

// noteShape records that exec will see b's shapes and tells whether exec must be
// rebuilt first because its cache is full.
func noteShape(shapes *map[string]bool, b *Batch) (rebuild bool) {
	if *shapes == nil {
		*shapes = map[string]bool{}
	}
	key := b.shapeKey()
	if (*shapes)[key] {
		return false
	}
	if len(*shapes) >= maxCompiledShapes {
		*shapes = map[string]bool{key: true}
		return true
	}
	(*shapes)[key] = true
	return false
}

// NewModel builds the model of cfg for ds on the pure-Go backend; see
// NewModelWithOptions.
func NewModel(cfg Config, ds *data.Dataset) (*Model, error) {
	return NewModelWithOptions(cfg, ds, ModelOptions{})
}

// NewModelWithOptions builds the model of cfg for ds on the chosen backend: it checks
// that the configuration fits the data set, runs the model once on the first training
// example to create and initialise its variables (seeded by cfg.Seed), and counts its
// parameters. It prepares the process's runtime first (SetupRuntime).
func NewModelWithOptions(cfg Config, ds *data.Dataset, opts ModelOptions) (*Model, error) {
	SetupRuntime()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if err := checkWeights(cfg, sysinfo.MemoryBudget()); err != nil {
		return nil, err
	}
	spec, err := newDataSpec(ds, opts.schema)
	if err != nil {
		return nil, err
	}
	m := &Model{cfg: cfg, spec: spec, dtype: dtypes.Float32}
	if opts.Float64 {
		m.dtype = dtypes.Float64
	}
	if m.loss, err = checkLossAndMetric(&cfg, spec.task); err != nil {
		return nil, err
	}
	if m.backend, err = NewBackend(opts.Backend); err != nil {
		return nil, err
	}
	m.backendName, m.prefetch = opts.Backend, opts.Prefetch
	if m.backendName == "" {
		m.backendName = DefaultBackend
	}
	padName := opts.Padding
	if padName == "" {
		padName = DefaultPadding(spec.transductive)
	}
	pads, err := parsePadding(padName)
	if err != nil {
		return nil, err
	}
	m.paddingName = padName
	if err := checkWay(cfg, spec, ds, opts); err != nil {
		return nil, err
	}
	if cfg.Attention.Layout() == layers.OverInteractionGraph && cfg.GlobalEdges {
		m.numVirtual = cfg.VirtualNodes
	}
	// Sparse node features whose encoder would gather more values (one row of the
	// weights per stored value) than the dense matrix holds are fed dense: Amazon
	// Computers' bag of words is 35 % full, and its [nnz, hidden] gather was 1.2 GB.
	n := spec.node
	m.densify = n.kind == data.Sparse && float64(n.rows)*float64(n.cols) <= float64(n.nnz)*float64(m.nodeEmbeddingDim())
	if m.interaction, err = m.interactionOptions(); err != nil {
		return nil, err
	}
	m.run = m.newRunner(ds, opts, pads)
	if cfg.PE != PENone {
		m.pe = posenc.NewCache(cfg.PE == PERWSE, cfg.PESize)
	}
	m.store = model.NewStore()
	if cfg.TorchInit {
		m.store.RootScope().SetParam(layers.ParamFanInBias, true)
	}
	if err := m.store.SetRNGStateFromSeed(int64(cfg.Seed)); err != nil {
		return nil, fmt.Errorf("model: seeding: %w", err)
	}
	b, err := m.firstBatch(ds)
	if err != nil {
		m.Close()
		return nil, err
	}
	out, err := m.forward(b)
	if err != nil {
		m.Close()
		return nil, err
	}
	out.FinalizeAll()
	for v := range m.store.IterVariables() {
		if v.Trainable {
			m.params += v.Shape().Size()
		}
	}
	return m, nil
}

// firstBatch returns the batch that creates the model's variables, as its way of
// running builds it.
func (m *Model) firstBatch(ds *data.Dataset) (*Batch, error) { return m.run.firstBatch(ds) }

// Close releases the model's compiled programs, variables and backend. The model must
// not be used afterwards.
func (m *Model) Close() {
	if m.run != nil {
		m.run.release()
	}
	for _, e := range []*model.Exec{m.trainExec, m.evalExec} {
		if e != nil {
			e.Finalize()
		}
	}
	m.trainExec, m.evalExec = nil, nil
	if m.store != nil {
		m.store.Finalize()
	}
	if m.backend != nil && !m.backend.IsFinalized() {
		m.backend.Finalize()
	}
}

// ParamCount returns the number of trainable parameters.
func (m *Model) ParamCount() int { return m.params }

// Config returns the model's configuration.
func (m *Model) Config() Config { return m.cfg }

// Backend returns the spec of the backend the model runs on.
func (m *Model) Backend() string { return m.backendName }

// checkPresence records the input fields of the first batch and checks later batches.
func (m *Model) checkPresence(b *Batch) error {
	p := b.presence()
	if m.presence == nil {
		m.presence = p
		return nil
	}
	if !slices.Equal(p, m.presence) {
		return fmt.Errorf("model: batch inputs %v differ from the model's %v", p, m.presence)
	}
	return nil
}

// Predict runs the model in inference mode on b and returns its outputs for the batch's
// real rows (nodes for node tasks, graphs otherwise), b.Rows × outputs, row-major:
// logits for classes (one logit for two classes), values for multi-label and
// regression tasks.
func (m *Model) Predict(b *Batch) ([]float32, error) {
	out, err := m.forward(b)
	if err != nil {
		return nil, err
	}
	defer out.FinalizeAll()
	flat := tensors.MustCopyFlatData[float32](out)
	return flat[:b.Rows*m.spec.outDim], nil
}

// forward runs the model in inference mode on b and returns its outputs [rows, outDim]
// (padded rows included).
func (m *Model) forward(b *Batch) (*tensors.Tensor, error) {
	if err := m.checkPresence(b); err != nil {
		return nil, err
	}
	// The Go backend embeds variables as constants in inference graphs, so a compiled
	// graph holds the weights of its compilation: it is rebuilt after every change.
	if noteShape(&m.evalShapes, b) {
		m.evalIsCached = false
	}
	if m.evalExec == nil || !m.evalIsCached {
		if !m.evalIsCached {
			m.evalShapes = map[string]bool{b.shapeKey(): true}
		}
		if m.evalExec != nil {
			m.evalExec.Finalize()
		}
		e, err := model.NewExec(m.backend, m.store, func(scope *model.Scope, ins []*Node) []*Node {
			return asFloat32([]*Node{m.modelGraph(scope, m.bind(ins))})
		})
		if err != nil {
			return nil, fmt.Errorf("model: %w", err)
		}
		m.evalExec, m.evalIsCached = e, true
	}
	outs, err := m.execute(m.evalExec, programEval, b.tensors()...)
	if err != nil {
		return nil, fmt.Errorf("model: forward pass: %w", err)
	}
	return outs[0], nil
}

// weightsChanged invalidates inference graphs that embed the weights as constants.
func (m *Model) weightsChanged() {
	if m.backend.Capabilities().PreferConstantsForVariables {
		m.evalIsCached = false
	}
}

// bind names the graph inputs of an executor (see Inputs).
func (m *Model) bind(ins []*Node) *Inputs[*Node] {
	in, err := bindInputs(m.presence, ins)
	if err != nil {
		panic(err) // Reported by model.Exec.Call as its error.
	}
	if m.dtype != dtypes.Float32 {
		for _, f := range in.fields() {
			if *f != nil && (*f).DType() == dtypes.Float32 {
				*f = ConvertDType(*f, m.dtype)
			}
		}
	}
	return in
}

// float32Only refuses what (training, layer-wise inference, attention scores) on a
// float64 model, which is a reference that predicts and computes gradients only.
func (m *Model) float32Only(what string) error {
	if m.dtype != dtypes.Float32 {
		return fmt.Errorf("%s: a float64 model (ModelOptions.Float64) only predicts and computes gradients, as a reference for float32 backends", what)
	}
	return nil
}

// asFloat32 returns the graph's results as float32, as every caller reads them (a
// float64 model's included).
func asFloat32(nodes []*Node) []*Node {
	for i, n := range nodes {
		if n.DType() == dtypes.Float64 {
			nodes[i] = ConvertDType(n, dtypes.Float32)
		}
	}
	return nodes
}

// numWorkers is the parallelism of host-side preprocessing.
func numWorkers() int { return max(1, runtime.GOMAXPROCS(0)) }
