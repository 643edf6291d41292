package gexph

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/gexph/gexph/data"
	"github.com/gexph/gexph/expander"
	"github.com/gexph/gexph/layers"
	"github.com/gomlx/gomlx/core/tensors/bucketing"
)

// batchDims are the sizes of a batch that padding sets: node rows, graphs, local edges,
// interaction edges, stored values of sparse node features (fed sparse) and the block
// size of per-graph attention (the largest graph's nodes). A size the model does not
// use is 0.
type batchDims struct {
	Nodes, Graphs, Edges, Interaction, NNZ, Block int
}

// sizes lists pointers to the sizes of d, in a fixed order.
func (d *batchDims) sizes() []*int {
	return []*int{&d.Nodes, &d.Graphs, &d.Edges, &d.Interaction, &d.NNZ, &d.Block}
}

// plus returns the sizes of the union of two batches: sums, and the larger block.
func (d batchDims) plus(o batchDims) batchDims {
	return batchDims{d.Nodes + o.Nodes, d.Graphs + o.Graphs, d.Edges + o.Edges, d.Interaction + o.Interaction,
		d.NNZ + o.NNZ, max(d.Block, o.Block)}
}

// max returns the larger of d and o in every size.
func (d batchDims) max(o batchDims) batchDims {
	return batchDims{max(d.Nodes, o.Nodes), max(d.Graphs, o.Graphs), max(d.Edges, o.Edges),
		max(d.Interaction, o.Interaction), max(d.NNZ, o.NNZ), max(d.Block, o.Block)}
}

// fits tells whether every size of d is at most l's.
func (d batchDims) fits(l batchDims) bool { return d.max(l) == l }

// each returns d with f applied to each size that is used (positive).
func (d batchDims) each(f func(int) int) batchDims {
	for _, s := range d.sizes() {
		if *s > 0 {
			*s = f(*s)
		}
	}
	return d
}

// String writes the used sizes by name.
func (d batchDims) String() string {
	var parts []string
	for i, s := range d.sizes() {
		if *s > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", []string{"nodes", "graphs", "edges", "interaction", "nnz", "block"}[i], *s))
		}
	}
	return strings.Join(parts, ", ")
}

// padding pads the sizes of batches; a nil *padding keeps exact shapes.
type padding struct {
	// strategy rounds each size up by itself (pow2, exp:B, linear:S).
	strategy bucketing.Strategy
	// levels are the shapes of a plan, cheapest first: a batch takes the first that
	// holds all its sizes.
	levels []batchDims
}

// pad returns the padded sizes of a batch that needs need (see Model.padNeed). A batch
// that no level of a plan holds (one the plan did not foresee: another split, other
// graphs) is padded size by size to powers of two.
func (p *padding) pad(need batchDims) batchDims {
	if p.strategy != nil {
		return need.each(p.strategy.Bucket)
	}
	for _, l := range p.levels {
		if need.fits(l) {
			return l
		}
	}
	return need.each(bucketing.Pow2().Bucket)
}

// bucket pads a size that a plan does not cover (BigBird's pattern): by the strategy,
// else to a power of two.
func (p *padding) bucket(n int) int {
	if p.strategy != nil {
		return p.strategy.Bucket(n)
	}
	return bucketing.Pow2().Bucket(n)
}

// Default levels of a plan (padding "plan").
const (
	defaultTrainLevels = 4
	defaultEvalLevels  = 2
	// maxPlanLevels bounds the levels of each program.
	maxPlanLevels = 16
	// maxPlanVisits bounds the graphs a plan adds up over the run's epochs: the epochs
	// beyond are not planned (their batches take a level where one holds them).
	maxPlanVisits = 1 << 26
	// planBlocks is how many runs of similar batches the choice of levels works on.
	planBlocks = 512
)

// paddingSpec is a parsed padding name (see parsePadding).
type paddingSpec struct {
	// strategy pads each size by itself; nil for "none" and for a plan.
	strategy bucketing.Strategy
	// trainLevels and evalLevels are a plan's levels (0: not a plan).
	trainLevels, evalLevels int
}

// parsePadding parses a padding name (TrainOptions.Padding):
//
//   - "none": exact shapes;
//   - "pow2": node, edge and graph counts rounded up to powers of two, each by itself;
//   - "exp:B": rounded up to powers of B > 1 (e.g. "exp:1.4", finer buckets);
//   - "linear:S": rounded up to multiples of S;
//   - "plan" or "plan:T,E": shapes planned for the data set (Model.PaddingPlan): at most
//     T shapes for the training batches of the whole run and E for the evaluation
//     batches (4 and 2 for "plan"), chosen from the sizes of the batches the run will
//     build;
//   - "" (auto, DefaultPadding): "plan" for batches of graphs on every backend, "none"
//     for a transductive graph.
//
// Every new input shape is compiled: tens of seconds on XLA on a GPU, 0.03–0.2 s on the
// pure-Go backend, and exact shapes would compile nearly every batch. A plan applies to
// batches of whole graphs: a transductive graph keeps exact shapes (one per program) and
// its sampled mini-batches powers of two.
//
// Padding changes no value the model computes: padded nodes, edges and graphs are
// masked out of every sum, normalisation statistic and loss. Dropout draws its masks over
// the padded shapes, so two paddings of one run draw other masks: the same seed and
// padding give the same run.
func parsePadding(spec string) (paddingSpec, error) {
	name, arg, hasArg := strings.Cut(spec, ":")
	switch name {
	case "none":
		return paddingSpec{}, nil
	case "pow2":
		return paddingSpec{strategy: bucketing.Pow2()}, nil
	case "exp":
		b, err := strconv.ParseFloat(arg, 64)
		if err != nil || !(b > 1) {
			return paddingSpec{}, fmt.Errorf("padding %q: want exp:B with a base B > 1", spec)
		}
		return paddingSpec{strategy: bucketing.Exponential(b)}, nil
	case "linear":
		s, err := strconv.Atoi(arg)
		if err != nil || s < 1 {
			return paddingSpec{}, fmt.Errorf("padding %q: want linear:S with a step S ≥ 1", spec)
		}
		return paddingSpec{strategy: bucketing.Linear(s)}, nil
	case "plan":
		if !hasArg {
			return paddingSpec{trainLevels: defaultTrainLevels, evalLevels: defaultEvalLevels}, nil
		}
		t, e, ok := strings.Cut(arg, ",")
		nt, errT := strconv.Atoi(t)
		ne, errE := strconv.Atoi(e)
		if !ok || errT != nil || errE != nil || nt < 1 || ne < 1 || nt > maxPlanLevels || ne > maxPlanLevels {
			return paddingSpec{}, fmt.Errorf("padding %q: want plan, or plan:T,E with 1 to %d shapes for training (T) and for evaluation (E), e.g. plan:4,2", spec, maxPlanLevels)
		}
		return paddingSpec{trainLevels: nt, evalLevels: ne}, nil
	}
	return paddingSpec{}, fmt.Errorf("padding %q: unknown (choices: \"none\", \"pow2\", \"exp:B\", \"linear:S\", \"plan\", \"plan:T,E\")", spec)
}

// graphDims returns the sizes graph gi of ds adds to a batch of the model; its
// interaction edges are bounded (expander.EdgeBound), not drawn.
func (m *Model) graphDims(ds *data.Dataset, gi int) batchDims {
	g := &ds.Graphs[gi]
	d := batchDims{Nodes: g.NumNodes, Graphs: 1, Edges: len(g.Src)}
	if m.sparseFed() {
		d.NNZ = len(g.Node.Indices)
	}
	switch m.cfg.Attention.Layout() {
	case layers.OverInteractionGraph:
		d.Interaction = expander.EdgeBound(expander.InputGraph{NumNodes: g.NumNodes, Src: g.Src, Dst: g.Dst}, m.interaction)
	case layers.OverGraphBlocks:
		d.Block = g.NumNodes
	}
	return d
}

// sparseFed tells whether the node features reach the model as a sparse matrix.
func (m *Model) sparseFed() bool { return m.spec.node.kind == data.Sparse && !m.densify }

// padNeed returns the sizes a padded batch whose real sizes are real must hold: a
// padding node in a padding graph (which padding edges join), at least one local edge,
// interaction edge and stored feature value where the model uses them.
func (m *Model) padNeed(real batchDims) batchDims {
	need := batchDims{Nodes: real.Nodes + 1, Graphs: real.Graphs + 1, Edges: max(real.Edges, 1), Block: real.Block}
	if m.cfg.Attention.Layout() == layers.OverInteractionGraph {
		need.Interaction = max(real.Interaction, 1)
	}
	if m.sparseFed() {
		need.NNZ = max(real.NNZ, 1)
	}
	return need
}

// shapePlan is a model's planned padding: the shapes of its training batches and of
// its evaluation batches, with the padding they were chosen to waste.
type shapePlan struct {
	train, eval *padding
	// trainBatches and epochs count the training batches planned for and the epochs
	// they span; evalBatches the evaluation batches.
	trainBatches, epochs, evalBatches int
	// trainWaste and evalWaste are the mean padding waste of those batches.
	trainWaste, evalWaste paddingWaste
}

// paddingWaste is the mean over batches of padded/real − 1 of the node rows and of the
// interaction edges (0 where the model has none).
type paddingWaste struct {
	Nodes, Interaction float64
}

// planPadding plans the padding of a model of batches of whole graphs of ds: the
// training batches of every epoch of the run (shuffled as Train shuffles them, up to
// maxPlanVisits graphs) share at most spec.trainLevels shapes, and the evaluation
// batches (validation and test, in order, and the first training graph alone, with
// which the model is built) at most spec.evalLevels.
func (m *Model) planPadding(ds *data.Dataset, spec paddingSpec) *shapePlan {
	dims := make([]batchDims, len(ds.Graphs)) // filled on first use (Graphs = 1)
	sum := func(graphs []int) batchDims {
		var s batchDims
		for _, gi := range graphs {
			if dims[gi].Graphs == 0 {
				dims[gi] = m.graphDims(ds, gi)
			}
			s = s.plus(dims[gi])
		}
		return s
	}
	bs := max(m.cfg.BatchSize, 1)
	p := &shapePlan{}
	var train []batchDims
	if n := len(ds.Split.Train); n > 0 {
		p.epochs = max(1, min(m.cfg.Epochs, maxPlanVisits/n))
		for epoch := 1; epoch <= p.epochs; epoch++ {
			for _, graphs := range batchesOf(m.epochOrder(ds.Split.Train, epoch), bs) {
				train = append(train, sum(graphs))
			}
		}
	}
	eval := []batchDims{sum([]int{firstGraph(ds)})}
	for _, idx := range [][]int{ds.Split.Val, ds.Split.Test} {
		for _, graphs := range batchesOf(idx, bs) {
			eval = append(eval, sum(graphs))
		}
	}
	if len(train) == 0 {
		train = eval
	}
	p.train = &padding{levels: chooseLevels(m.padNeeds(train), spec.trainLevels)}
	p.eval = &padding{levels: chooseLevels(m.padNeeds(eval), spec.evalLevels)}
	// The first graph's pass is no evaluation batch: its waste is left out.
	p.trainBatches, p.evalBatches = len(train), len(eval)-1
	p.trainWaste, p.evalWaste = m.waste(p.train, train), m.waste(p.eval, eval[1:])
	return p
}

// padNeeds returns padNeed of each of sums.
func (m *Model) padNeeds(sums []batchDims) []batchDims {
	needs := make([]batchDims, len(sums))
	for i, s := range sums {
		needs[i] = m.padNeed(s)
	}
	return needs
}

// chooseLevels returns at most k shapes, cheapest first, that hold every one of needs
// (k ≥ 1), chosen to pad them little: the needs, sorted by cost (costOf), are cut into
// at most k runs, each padded to its largest sizes, where the cuts minimise the total
// cost of the padded needs (dynamic programming over at most planBlocks runs of
// similar needs). It sorts needs.
func chooseLevels(needs []batchDims, k int) []batchDims {
	if len(needs) == 0 {
		return nil
	}
	cost := costOf(needs)
	slices.SortFunc(needs, func(a, b batchDims) int { return cmp.Compare(cost(a), cost(b)) })
	nb := min(len(needs), planBlocks)
	blockMax, upTo := make([]batchDims, nb), make([]int, nb+1)
	for b := range nb {
		lo, hi := b*len(needs)/nb, (b+1)*len(needs)/nb
		for _, d := range needs[lo:hi] {
			blockMax[b] = blockMax[b].max(d)
		}
		upTo[b+1] = hi
	}
	k = min(k, nb)
	// best[j] is the least total cost of the first j blocks in r runs; cut[r][j] the
	// start of the last of them.
	best := make([]float64, nb+1)
	for j := 1; j <= nb; j++ {
		best[j] = math.Inf(1)
	}
	cut := make([][]int, k+1)
	for r := 1; r <= k; r++ {
		next, cr := make([]float64, nb+1), make([]int, nb+1)
		next[0] = math.Inf(1)
		for j := 1; j <= nb; j++ {
			next[j] = math.Inf(1)
			var run batchDims
			for i := j - 1; i >= 0; i-- {
				run = run.max(blockMax[i])
				if c := best[i] + float64(upTo[j]-upTo[i])*cost(run); c < next[j] {
					next[j], cr[j] = c, i
				}
			}
		}
		best, cut[r] = next, cr
	}
	var levels []batchDims
	for r, j := k, nb; r > 0 && j > 0; r-- {
		i := cut[r][j]
		var run batchDims
		for _, d := range blockMax[i:j] {
			run = run.max(d)
		}
		levels = append(levels, run)
		j = i
	}
	slices.SortFunc(levels, func(a, b batchDims) int { return cmp.Compare(cost(a), cost(b)) })
	return slices.Compact(levels)
}

// costOf returns the cost of a shape among needs: the sum over sizes of the size over
// its mean in needs, so that each size's relative padding counts alike.
func costOf(needs []batchDims) func(batchDims) float64 {
	var mean [6]float64
	for _, d := range needs {
		for i, s := range d.sizes() {
			mean[i] += float64(*s) / float64(len(needs))
		}
	}
	return func(d batchDims) float64 {
		c := 0.0
		for i, s := range d.sizes() {
			if mean[i] > 0 {
				c += float64(*s) / mean[i]
			}
		}
		return c
	}
}

// waste returns the mean padding waste of batches whose real sizes are sums, padded
// by p.
func (m *Model) waste(p *padding, sums []batchDims) paddingWaste {
	var w paddingWaste
	for _, s := range sums {
		padded := p.pad(m.padNeed(s))
		w.Nodes += float64(padded.Nodes)/float64(s.Nodes) - 1
		if s.Interaction > 0 {
			w.Interaction += float64(padded.Interaction)/float64(s.Interaction) - 1
		}
	}
	n := float64(max(len(sums), 1))
	return paddingWaste{w.Nodes / n, w.Interaction / n}
}

// PaddingPlan describes the model's planned padding (padding "plan"): the shapes of
// its training and evaluation batches and the mean padding waste (padded/real − 1 of the
// node rows and of the interaction edges, the latter bounded as the plan counts them)
// of the batches planned for. It is "" without a plan.
func (m *Model) PaddingPlan() string {
	p := m.plan
	if p == nil {
		return ""
	}
	return fmt.Sprintf("padding plan: %d training shapes for %d batches of %d epochs (waste %s), %d evaluation shapes for %d batches (waste %s)",
		len(p.train.levels), p.trainBatches, p.epochs, p.trainWaste, len(p.eval.levels), p.evalBatches, p.evalWaste)
}

// String writes the waste as percentages.
func (w paddingWaste) String() string {
	if w.Interaction == 0 {
		return fmt.Sprintf("nodes %.1f %%", 100*w.Nodes)
	}
	return fmt.Sprintf("nodes %.1f %%, interaction edges %.1f %%", 100*w.Nodes, 100*w.Interaction)
}
