package gexph

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"

	"github.com/gexph/gexph/data"
	"github.com/gexph/gexph/expander"
	"github.com/gexph/gexph/gexph/posenc"
	"github.com/gexph/gexph/internal/sysinfo"
	"github.com/gexph/gexph/layers"
	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX graph building reads best dot-imported.
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/core/tensors/bucketing"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ml/model/initializer"
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
	// compiles counts the programs compiled (see CompileStats).
	compiles    compileLog
	interaction expander.InteractionOptions
	// A transductive data set's batches are the same every epoch: the training batch
	// (loss on the training nodes) and the inference batch of tdData, built once.
	tdData           *data.Dataset
	tdTrain, tdInfer *Batch
	// sp samples the mini-batches of a transductive data set (Config.BatchNodes).
	sp *sampler
	// layerGraphs are the per-layer attention edges (ModelOptions.LayerGraphs), or nil.
	layerGraphs *LayerGraphs
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
		padName = DefaultPadding(m.backendName, spec.transductive)
	}
	pads, err := parsePadding(padName)
	if err != nil {
		return nil, err
	}
	if cfg.BatchNodes > 0 {
		if !spec.transductive {
			return nil, fmt.Errorf("config: batch_nodes = %d applies to the one graph of a transductive data set; %q has graphs, batched by batch_size", cfg.BatchNodes, ds.Name)
		}
	}
	if cfg.SparseAttentionK > 0 && opts.LayerGraphs == nil {
		return nil, fmt.Errorf("config: sparse_attention_k = %d attends over per-layer graphs drawn from a first-stage model's attention scores: train with TrainOptions.ScoresFrom (gexph train -scores-from CKPT), or give ModelOptions.LayerGraphs", cfg.SparseAttentionK)
	}
	if opts.LayerGraphs != nil {
		if err := opts.LayerGraphs.check(cfg, spec); err != nil {
			return nil, err
		}
		m.layerGraphs = opts.LayerGraphs
		// Per-layer edge lists are padded to one length with edges of one padding node.
		pads = paddingSpec{strategy: bucketing.Linear(1)}
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
	m.setPadding(ds, pads)
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

// DefaultPadding is the batch padding of a backend. Every new input shape is compiled.
// The pure-Go backend compiles a training graph in about 0.2 s, less than padding
// costs (PATTERN's step: 1.3 s exact, 2.2 s padded to powers of two), so it gets exact
// shapes; XLA on a GPU compiles for 30–40 s a shape, so batches of graphs get a plan
// there (a few shapes for the whole run, see parsePadding). A transductive graph has
// one shape. An empty backend is the default one.
func DefaultPadding(backend string, transductive bool) string {
	if kind, _, _ := strings.Cut(backend, ":"); !transductive && kind != "" && kind != DefaultBackend {
		return "plan"
	}
	return "none"
}

// setPadding sets the model's padding from spec: a plan applies to batches of whole
// graphs; a transductive graph keeps exact shapes (its sampled mini-batches pad to
// powers of two, see sampleBatch).
func (m *Model) setPadding(ds *data.Dataset, spec paddingSpec) {
	switch {
	case spec.strategy != nil:
		m.padding = &padding{strategy: spec.strategy}
		m.evalPadding = m.padding
	case spec.trainLevels > 0 && !m.spec.transductive:
		m.plan = m.planPadding(ds, spec)
		m.padding, m.evalPadding = m.plan.train, m.plan.eval
	}
}

// firstGraph returns the graph the model is built with: the first training graph
// (graph 0 of a transductive data set, or without training graphs).
func (m *Model) firstGraph(ds *data.Dataset) int {
	if !m.spec.transductive && len(ds.Split.Train) > 0 {
		return ds.Split.Train[0]
	}
	return 0
}

// firstBatch returns the batch that creates the model's variables: the first training
// graph, the whole graph of a transductive data set, or its first mini-batch.
func (m *Model) firstBatch(ds *data.Dataset) (*Batch, error) {
	if m.miniBatch() {
		sp, err := m.samplerOf(ds)
		if err != nil {
			return nil, err
		}
		seeds := ds.Split.Train[:min(m.cfg.BatchNodes, len(ds.Split.Train))]
		if len(seeds) == 0 {
			seeds = []int{0}
		}
		s, err := sp.sample(seeds, m.cfg.Seed, 0)
		if err != nil {
			return nil, err
		}
		b, _, err := m.sampleBatch(sp, s, false, false)
		return b, err
	}
	if m.layerGraphs != nil {
		return m.buildBatch(ds, []int{0}, nil, m.layerGraphs.H, m.padding)
	}
	// The first pass is an evaluation pass: its batch is padded as evaluation batches.
	return m.buildBatch(ds, []int{m.firstGraph(ds)}, nil, nil, m.evalPadding)
}

// Close releases the model's compiled programs, variables and backend. The model must
// not be used afterwards.
func (m *Model) Close() {
	m.releaseTransductive()
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

// nodeEmbeddingDim is the width of the encoded node features (the PE embedding fills
// the rest of HiddenDim for lappe and rwse; a classic model's first layer reads its k
// input maps of width HiddenDim from one encoding of width k·HiddenDim).
func (m *Model) nodeEmbeddingDim() int {
	if k := m.cfg.gpsConfig().ClassicInputMaps(); k > 0 {
		return k * m.cfg.HiddenDim
	}
	if m.cfg.PE == PELap || m.cfg.PE == PERWSE {
		return m.cfg.HiddenDim - m.cfg.PEDim
	}
	return m.cfg.HiddenDim
}

// needEdgeStates tells whether the model uses encoded local edge features.
func (m *Model) needEdgeStates() bool {
	return m.cfg.MPNN.UsesEdgeFeatures() || (m.cfg.Attention.Layout() == layers.OverInteractionGraph && m.cfg.LocalEdges)
}

// gpsConfig returns the layers package's GPS configuration.
func (m *Model) gpsConfig() layers.GPSConfig { return m.cfg.gpsConfig() }

// modelGraph builds the model: encoders, virtual nodes, GPS layers and the head.
// It returns the outputs [rows, outDim].
func (m *Model) modelGraph(scope *model.Scope, in *Inputs[*Node]) *Node {
	scope = scope.WithInitializer(layers.FanInUniform(scope))
	h, ed := m.encodeGraph(scope, in, true)
	e := ed.e
	for l := 0; l < m.cfg.Layers; l++ {
		h, e = m.layerGraph(scope, l, h, e, in, ed, nil)
	}
	return m.headGraph(scope, h, in)
}

// edgeInputs are what the layers read besides the node states: the encoded local edges
// (e materialised, or the rows of eTable at eIndex), the attention's edge table and index,
// and the equivariant-stable PE distances.
type edgeInputs struct {
	e, eTable, eIndex, attnTable, attnIndex, peDist *Node
	// firstMaps are the input maps of a classic model's first layer (encodeFirstMaps),
	// which reads them in place of node states.
	firstMaps []*Node
}

// encodeGraph builds the encoders: with nodes, the node states [N + V, D] entering the
// first layer (features, positional encodings, pre-MP layers, virtual nodes), or for
// block classic the first layer's input maps (ed.firstMaps, h nil); always the encoded
// edges. scope carries the model's initializer.
func (m *Model) encodeGraph(scope *model.Scope, in *Inputs[*Node], nodes bool) (h *Node, ed edgeInputs) {
	cfg := m.cfg
	d := cfg.HiddenDim
	dtype := m.dtype
	g := in.NodeMask.Graph()
	gp := in.GraphMask.Shape().Dimensions[0]

	var esPE *Node
	if nodes && cfg.Block == layers.BlockClassic {
		ed.firstMaps = m.encodeFirstMaps(scope.In("node_encoder"), in)
	} else if nodes || cfg.PE == PEESLap {
		if nodes {
			h = m.encodeNodes(scope.In("node_encoder"), in, m.nodeEmbeddingDim(), true)
		}
		switch cfg.PE {
		case PEESLap:
			esPE = layers.ESLapPEEncoder(scope.In("pe_encoder"), in.PEVec, in.PEMask, d)
		case PELap:
			if nodes {
				pe := layers.NewLapPEEncoder(scope.In("pe_encoder"), in.PEVec, in.PEVal, cfg.PEDim).Mask(in.PEMask).Done()
				h = Concatenate([]*Node{h, pe}, -1)
			}
		case PERWSE:
			if nodes {
				h = Concatenate([]*Node{h, layers.RWSEEncoder(scope.In("pe_encoder"), in.RWSE, cfg.PEDim, false)}, -1)
			}
		}
	}
	if nodes && cfg.PreMPLayers > 0 {
		pre := layers.NewPreMP(scope.In("pre_mp"), h).Layers(cfg.PreMPLayers).Dropout(cfg.Dropout)
		if cfg.Norm == layers.NormBatch {
			pre.BatchNorm(in.NodeMask)
		}
		h = pre.Done()
	}

	// The attention's edge embeddings are rows of a table (the encoded local edges or
	// their distinct values, then the learned interaction-edge types): the attention
	// projects the table rather than every edge.
	numTypes := expander.NumLearnedEdgeTypes(m.numVirtual)
	// Per-layer attention edges index the table from their sources, all layers' in one row.
	hSource := in.HSource
	if in.LayerHSource != nil {
		hSource = Reshape(in.LayerHSource, -1)
	}
	// e holds the local edge states; the first layer may take them as rows of a table
	// (eTable, eIndex) and materialises them.
	if m.needEdgeStates() {
		localTable, localIndex := m.encodeEdgeTable(scope.In("edge_encoder"), in, d)
		switch {
		case localIndex == nil:
			ed.e = localTable
		case m.cfg.MPNN.UsesEdgeFeatures():
			ed.eTable, ed.eIndex = localTable, localIndex
		}
		if cfg.Attention.Layout() == layers.OverInteractionGraph {
			ed.attnTable, ed.attnIndex = layers.MixedEdgeTable(scope.In("interaction_edges"), localTable, localIndex,
				hSource, numTypes)
		}
	} else if cfg.Attention.Layout() == layers.OverInteractionGraph {
		ed.attnTable = layers.EdgeTypeEmbedding(scope.In("interaction_edges"),
			Iota(g, shapes.Make(dtypes.Int32, numTypes), 0), numTypes, d, dtype)
		ed.attnIndex = layers.LearnedTypeIndex(hSource)
	}
	// The equivariant-stable gates read the squared PE distances across the local edges,
	// the same in every layer: computed once.
	if esPE != nil && cfg.MPNN.UsesEdgeFeatures() {
		ed.peDist = layers.PEDistances(esPE, in.Src, in.Dst)
	}
	if nodes && m.numVirtual > 0 {
		h = layers.AppendVirtualNodes(scope.In("virtual_nodes"), h, m.numVirtual, gp)
	}
	return h, ed
}

// layerGraph builds GPS layer l on the node states h [N + V, D] and the local edge
// states e (ed.e before the first layer), and returns both updated. With weights, the
// layer's attention weights [E, Heads] go to *weights. With per-layer attention edges
// (Inputs.LayerHSrc), layer l attends over row l of them.
func (m *Model) layerGraph(scope *model.Scope, l int, h, e *Node, in *Inputs[*Node], ed edgeInputs, weights **Node) (*Node, *Node) {
	cfg := m.cfg
	lb := layers.NewGPSLayer(scope.In("layer_%d", l), h, m.gpsConfig()).NormMask(in.NormMask).LocalEdgeMask(in.EdgeMask)
	if l == 0 && ed.firstMaps != nil {
		lb.InputMaps(ed.firstMaps)
	}
	if cfg.ReferenceVirtualNodes && m.numVirtual > 0 {
		lb.ReferenceVirtualNodes(in.NodeMask.Shape().Dimensions[0])
	}
	if cfg.MPNN.PassesMessages() {
		lb.LocalEdges(in.Src, in.Dst, e)
		if in.InDegree != nil {
			lb.LocalInDegree(in.InDegree)
		}
		if e == nil && ed.eTable != nil {
			lb.LocalEdgeTable(ed.eTable, ed.eIndex)
		}
	}
	switch cfg.Attention.Layout() {
	case layers.OverInteractionGraph:
		src, dst, index := in.HSrc, in.HDst, ed.attnIndex
		if in.LayerHSrc != nil {
			ek := in.LayerHSrc.Shape().Dimensions[1]
			row := func(x *Node) *Node { return Reshape(Slice(x, AxisElem(l)), ek) }
			src, dst = row(in.LayerHSrc), row(in.LayerHDst)
			index = Slice(index, AxisRange(l*ek, (l+1)*ek))
		}
		lb.AttentionEdges(src, dst, nil).AttentionEdgeTable(ed.attnTable, index)
		if weights != nil {
			lb.AttentionWeightsTo(weights)
		}
	case layers.OverPattern:
		lb.AttentionEdges(in.BBSrc, in.BBDst, nil)
	case layers.OverGraphBlocks:
		lb.Blocks(in.BlockNodes)
	}
	if ed.peDist != nil {
		lb.EquivStableDistances(ed.peDist)
	}
	return lb.Done()
}

// headGraph builds the output head on the last layer's states h [N + V, D]: it drops the
// virtual nodes, pools graph-level tasks and returns the outputs [rows, outDim].
func (m *Model) headGraph(scope *model.Scope, h *Node, in *Inputs[*Node]) *Node {
	np := in.NodeMask.Shape().Dimensions[0]
	gp := in.GraphMask.Shape().Dimensions[0]
	if m.numVirtual > 0 {
		h = Slice(h, AxisRange(0, np))
	}
	head := scope.In("head")
	rows, rowMask := h, in.NodeMask
	if !m.spec.nodeLevel {
		rows, rowMask = layers.GraphPool(h, in.GraphID, in.NodeMask, gp, m.cfg.Pooling), in.GraphMask
	}
	hb := layers.NewMLPHead(head, rows, m.spec.outDim).Layers(m.cfg.HeadLayers).L2Normalize(m.cfg.HeadL2Norm)
	if m.cfg.HeadNorm {
		hb.BatchNorm(rowMask)
	}
	return hb.Done()
}

// encodeFirstMaps returns the k input maps of a classic model's first layer
// (layers.GPSConfig.ClassicInputMaps): the node features times each of the layer's k
// weights, [rows, HiddenDim] each and without bias, computed as one encoding of width
// k·HiddenDim (the weights of a dense feature matrix sliced, never the result).
func (m *Model) encodeFirstMaps(scope *model.Scope, in *Inputs[*Node]) []*Node {
	d, k := m.cfg.HiddenDim, m.cfg.gpsConfig().ClassicInputMaps()
	if m.spec.node.kind == data.Dense {
		return layers.LinearParts(scope, in.X, false, d, k)
	}
	all := m.encodeNodes(scope, in, k*d, false)
	maps := make([]*Node, k)
	for p := range maps {
		maps[p] = Slice(all, AxisRange(), AxisRange(p*d, (p+1)*d))
	}
	return maps
}

// encodeNodes embeds the node features to width dim: a linear map (dense, sparse) or a
// sum of per-column embeddings (categorical; the same function as a linear map of the
// one-hot codes), each plus a bias when bias is set, or one learned vector when there
// are no features.
func (m *Model) encodeNodes(scope *model.Scope, in *Inputs[*Node], dim int, bias bool) *Node {
	np := in.NodeMask.Shape().Dimensions[0]
	switch m.spec.node.kind {
	case data.Dense:
		return layers.Linear(scope, in.X, bias, dim)
	case data.Categorical:
		return categoricalEmbedding(scope, in.XCat, m.spec.node.card, dim, m.cfg.TorchInit, bias, m.dtype)
	case data.Sparse:
		g := in.NodeMask.Graph()
		w := scope.VariableWithShape("weights", shapes.Make(m.dtype, m.spec.node.cols, dim)).NodeValue(g)
		var x *Node
		if m.densify {
			x = layers.LinearMap(in.X, w)
		} else {
			rows := Mul(Gather(w, InsertAxes(in.XCol, -1)), InsertAxes(in.XVal, -1))
			x = ScatterSum(Zeros(g, shapes.Make(m.dtype, np, dim)), InsertAxes(in.XRow, -1), rows, false, false)
		}
		if !bias {
			return x
		}
		b := scope.WithInitializer(initializer.Zero).VariableWithShape("biases", shapes.Make(m.dtype, dim)).NodeValue(g)
		return Add(x, InsertAxes(b, 0))
	}
	one := layers.EdgeTypeEmbedding(scope, Zeros(in.NodeMask.Graph(), shapes.Make(dtypes.Int32, 1)), 1, dim, m.dtype)
	return BroadcastToDims(one, np, dim)
}

// encodeEdgeTable embeds the local edge features to width dim (as encodeNodes) as a
// table and an index: local edge i has embedding table[index[i]]. index is nil when the
// table has one row per edge (dense or multi-column categorical features); no features
// give a one-row table and a single categorical column its table of codes.
func (m *Model) encodeEdgeTable(scope *model.Scope, in *Inputs[*Node], dim int) (table, index *Node) {
	g := in.Src.Graph()
	ep := in.Src.Shape().Dimensions[0]
	switch {
	case m.spec.edge.kind == data.Dense:
		return layers.Linear(scope, in.E, true, dim), nil
	case m.spec.edge.kind == data.Categorical && len(m.spec.edge.card) == 1:
		codes := max(m.spec.edge.card[0], 1)
		all := Iota(g, shapes.Make(dtypes.Int32, codes), 0)
		table = layers.EdgeTypeEmbedding(scope.In("column_0"), all, codes, dim, m.dtype)
		b := scope.WithInitializer(initializer.Zero).VariableWithShape("biases", shapes.Make(m.dtype, dim)).NodeValue(g)
		return Add(table, InsertAxes(b, 0)), Reshape(in.ECat, ep)
	case m.spec.edge.kind == data.Categorical:
		return categoricalEmbedding(scope, in.ECat, m.spec.edge.card, dim, false, true, m.dtype), nil
	}
	one := layers.EdgeTypeEmbedding(scope, Zeros(g, shapes.Make(dtypes.Int32, 1)), 1, dim, m.dtype)
	return one, Zeros(g, shapes.Make(dtypes.Int32, ep))
}

// categoricalEmbedding sums one learned embedding per column of codes [R, C] and, with
// bias, adds a bias: the linear map of the concatenated one-hot codes. With oneHotInit
// the tables and the bias are initialised as PyTorch's nn.Linear of that one-hot vector
// (uniform in ±1/√(total codes)); otherwise the rows N(0, 1) and the bias zero.
func categoricalEmbedding(scope *model.Scope, codes *Node, card []int, dim int, oneHotInit, bias bool, dtype dtypes.DType) *Node {
	g := codes.Graph()
	biasScope := scope.WithInitializer(initializer.Zero)
	var uniform *model.Scope
	if oneHotInit {
		width := 0
		for _, n := range card {
			width += max(n, 1)
		}
		limit := 1 / math.Sqrt(float64(max(width, 1)))
		uniform = scope.WithInitializer(initializer.RandomUniformFn(scope, -limit, limit))
		biasScope = uniform
	}
	var sum *Node
	for c, n := range card {
		col := Reshape(Slice(codes, AxisRange(), AxisRange(c, c+1)), -1)
		var emb *Node
		if oneHotInit {
			table := uniform.In("column_%d", c).VariableWithShape("embeddings", shapes.Make(dtype, max(n, 1), dim)).NodeValue(g)
			emb = Gather(table, InsertAxes(ConvertDType(col, dtypes.Int32), -1))
		} else {
			emb = layers.EdgeTypeEmbedding(scope.In("column_%d", c), col, max(n, 1), dim, dtype)
		}
		if sum == nil {
			sum = emb
		} else {
			sum = Add(sum, emb)
		}
	}
	if !bias {
		if sum == nil {
			return Zeros(g, shapes.Make(dtype, codes.Shape().Dimensions[0], dim))
		}
		return sum
	}
	b := biasScope.VariableWithShape("biases", shapes.Make(dtype, dim)).NodeValue(g)
	if sum == nil {
		return BroadcastToDims(InsertAxes(b, 0), codes.Shape().Dimensions[0], dim)
	}
	return Add(sum, InsertAxes(b, 0))
}

// transductiveBatch returns the cached training (train) or inference batch of the
// single graph of ds, building it on first use.
func (m *Model) transductiveBatch(ds *data.Dataset, train bool) (*Batch, error) {
	if m.tdData != ds {
		m.releaseTransductive()
		m.tdData = ds
	}
	slot, loss := &m.tdInfer, []int(nil)
	if train {
		slot, loss = &m.tdTrain, ds.Split.Train
	}
	if *slot == nil {
		var h *expander.Interaction
		if m.layerGraphs != nil {
			h = m.layerGraphs.H
		}
		b, err := m.buildBatch(ds, []int{0}, loss, h, m.padding)
		if err != nil {
			return nil, err
		}
		*slot = b
	}
	return *slot, nil
}

// releaseTransductive frees the cached batches of a transductive data set.
func (m *Model) releaseTransductive() {
	for _, b := range []*Batch{m.tdTrain, m.tdInfer} {
		if b != nil {
			b.Release()
		}
	}
	m.tdData, m.tdTrain, m.tdInfer = nil, nil, nil
}

// numWorkers is the parallelism of host-side preprocessing.
func numWorkers() int { return max(1, runtime.GOMAXPROCS(0)) }
