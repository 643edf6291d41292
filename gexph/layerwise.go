package gexph

import (
	"context"
	"fmt"
	"slices"

	"github.com/gexph/gexph/data"
	"github.com/gexph/gexph/expander"
	"github.com/gexph/gexph/layers"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX graph building reads best dot-imported.
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
)

// evalChunkNodes is the number of destination nodes per chunk of layer-wise inference.
func (m *Model) evalChunkNodes() int {
	if m.cfg.EvalChunkNodes > 0 {
		return m.cfg.EvalChunkNodes
	}
	return 16 * max(m.cfg.BatchNodes, 64)
}

// LayerwiseOutputs runs the model in inference mode on the whole graph of the
// transductive data set ds one layer at a time, as for graphs too large for one pass:
// layer l's states of every node are computed over chunks of destination nodes
// (Config.EvalChunkNodes), each chunk with its incoming interaction and local edges and
// the layer-(l−1) states of their sources, and kept on the host for the next layer.
// The result equals the full-graph forward pass (up to float rounding): it returns the
// outputs of the graph's nodes, NumNodes × outputs, row-major. Memory is two [nodes,
// hidden_dim] float32 arrays on the host plus two chunks (the next is built while the
// backend runs the current one); a virtual node is a chunk of its own, with every real
// node as a source. A cancelled ctx stops it between chunks with ctx's error, the
// goroutine that builds the chunks ended.
func (m *Model) LayerwiseOutputs(ctx context.Context, ds *data.Dataset) ([]float32, error) {
	if err := m.float32Only("layer-wise inference"); err != nil {
		return nil, err
	}
	if !ds.Transductive {
		return nil, fmt.Errorf("layer-wise inference: data set %q is not transductive", ds.Name)
	}
	if err := m.cfg.checkLayerwise(); err != nil {
		return nil, fmt.Errorf("layer-wise inference: %w", err)
	}
	sp, err := m.samplerOf(ds)
	if err != nil {
		return nil, err
	}
	h := sp.h
	numLayers, d, k := m.cfg.Layers, m.cfg.HiddenDim, m.spec.outDim
	out := make([]float32, h.NumReal*k)
	var cur, next []float32
	for l := range numLayers {
		last := l == numLayers-1
		// Before the last layer every node's state is needed, virtual ones included;
		// the last layer scores the real nodes.
		dsts := h.NumNodes
		if last {
			dsts = h.NumReal
		} else if next == nil {
			next = make([]float32, h.NumNodes*d)
		}
		err := m.layerwiseStage(ctx, sp, l, dsts, cur, func(res []float32, s *expander.Sample, rowOf []int32) {
			for i := range s.NumSeeds {
				v := int(s.Nodes[i])
				if last {
					copy(out[v*k:(v+1)*k], res[int(rowOf[i])*k:])
				} else {
					copy(next[v*d:(v+1)*d], res[int(rowOf[i])*d:])
				}
			}
		})
		if err != nil {
			return nil, err
		}
		cur, next = next, cur
	}
	return out, nil
}

// layerwiseStage runs layer l of layer-wise inference (the encoders too in the first,
// the head in the last) over the chunks of the destination nodes [0, dsts) of sp's
// interaction graph, the sources' states of the layer before being state (nil in the
// first), and hands each chunk's result rows to put. It stops between chunks when ctx
// is cancelled, and returns once the goroutine that builds the chunks has ended.
func (m *Model) layerwiseStage(ctx context.Context, sp *sampler, l, dsts int, state []float32, put func(res []float32, s *expander.Sample, rowOf []int32)) error {
	first, last := l == 0, l == m.cfg.Layers-1
	// The chunks' inputs may differ from the training batches' (gcn's degrees): the
	// stage binds those of its chunks, set by the first.
	var presence []bool
	exec, err := model.NewExec(m.backend, m.store, func(scope *model.Scope, ins []*Node) []*Node {
		var state *Node
		if !first {
			ins, state = ins[:len(ins)-1], ins[len(ins)-1]
		}
		in, err := bindInputs(presence, ins)
		if err != nil {
			panic(err) // Reported by model.Exec.Call as its error.
		}
		scope = scope.WithInitializer(layers.FanInUniform(scope))
		x, ed := m.encodeGraph(scope, in, first)
		if !first {
			x = state
		}
		x, _ = m.layerGraph(scope, l, x, ed.e, in, ed, nil)
		if last {
			return []*Node{m.headGraph(scope, x, in)}
		}
		return []*Node{x}
	})
	if err != nil {
		return fmt.Errorf("layer-wise inference: %w", err)
	}
	defer exec.Finalize()
	// The host builds the next chunk while the backend runs this one.
	chunks := m.streamChunks(ctx, sp, dsts, m.evalChunkNodes(), state)
	defer chunks.stop()
	for w := range chunks.ch {
		err := ctx.Err()
		if err == nil {
			if err = m.runChunk(exec, &presence, w, put); err != nil {
				err = fmt.Errorf("layer-wise inference: layer %d, nodes [%d, %d): %w", l, w.lo, w.hi, err)
			}
		}
		w.release()
		if err != nil {
			return err
		}
	}
	// The chunks end early only when ctx is cancelled.
	return ctx.Err()
}

// chunkWork is one chunk of layer-wise inference built on the host: its sample, batch,
// rows and the sources' states (nil in the first layer), or the error building it.
type chunkWork struct {
	lo, hi int
	s      *expander.Sample
	b      *Batch
	rowOf  []int32
	state  *tensors.Tensor
	err    error
}

// release frees the chunk's tensors.
func (w chunkWork) release() {
	if w.b != nil {
		w.b.Release()
	}
	if w.state != nil {
		w.state.FinalizeAll()
	}
}

// chunkStream hands over the chunks of one stage of layer-wise inference in order,
// built on a goroutine of their own, one ahead of the chunk the backend runs.
type chunkStream struct {
	ch     chan chunkWork
	cancel context.CancelFunc
	done   chan struct{}
	// built counts the chunks the goroutine built (read once done is closed).
	built int
}

// streamChunks starts the stream of the chunks of the destination nodes [0, dsts) of
// sp's interaction graph (chunk nodes each) with the sources' states state. The
// goroutine ends when every chunk is handed over, after a chunk that failed to build, or
// when ctx is cancelled; the caller takes the chunks from ch and must call stop.
func (m *Model) streamChunks(ctx context.Context, sp *sampler, dsts, chunk int, state []float32) *chunkStream {
	ctx, cancel := context.WithCancel(ctx)
	s := &chunkStream{ch: make(chan chunkWork, 1), cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(s.done)
		defer close(s.ch)
		s.built = m.buildChunks(ctx, sp, dsts, chunk, state, s.ch)
	}()
	return s
}

// stop ends the stream: the goroutine stops before its next chunk, the chunks it built
// that were not taken are released, and stop returns once it has ended.
func (s *chunkStream) stop() {
	s.cancel()
	for w := range s.ch {
		w.release()
	}
	<-s.done
}

// buildChunks builds the chunks of destination nodes [0, dsts) of sp's interaction graph
// in order (chunk nodes per chunk, a virtual node alone) with every incoming edge the
// model reads and the states state of their sources, and sends them to out; it stops
// after sending an error, or when ctx is cancelled (before building the next chunk, or
// while it waits to send one). It returns the number of chunks built.
func (m *Model) buildChunks(ctx context.Context, sp *sampler, dsts, chunk int, state []float32, out chan<- chunkWork) (built int) {
	h := sp.h
	for lo := 0; lo < dsts; {
		if ctx.Err() != nil {
			return built
		}
		hi := min(lo+chunk, h.NumReal)
		if lo >= h.NumReal {
			hi = lo + 1
		}
		w := chunkWork{lo: lo, hi: hi, s: sp.chunkSample(lo, hi)}
		w.b, w.rowOf, w.err = m.sampleBatch(sp, w.s, false, true)
		if w.err == nil && state != nil {
			d := m.cfg.HiddenDim
			rows := w.b.PadNodes + m.numVirtual*w.b.PadGraphs
			x := make([]float32, rows*d)
			for i, v := range w.s.Nodes {
				copy(x[int(w.rowOf[i])*d:(int(w.rowOf[i])+1)*d], state[int(v)*d:])
			}
			w.state = tensors.FromFlatDataAndDimensions(x, rows, d)
		}
		built++
		select {
		case out <- w:
		case <-ctx.Done():
			w.release()
			return built
		}
		if w.err != nil {
			return built
		}
		lo = hi
	}
	return built
}

// runChunk runs exec, one stage of layer-wise inference, on a chunk and hands the
// result rows to use. presence holds the inputs the stage was built for (set by its
// first chunk).
func (m *Model) runChunk(exec *model.Exec, presence *[]bool, w chunkWork, use func(res []float32, s *expander.Sample, rowOf []int32)) error {
	if w.err != nil {
		return w.err
	}
	if p := w.b.presence(); *presence == nil {
		*presence = p
	} else if !slices.Equal(p, *presence) {
		return fmt.Errorf("chunk inputs %v differ from the first chunk's %v", p, *presence)
	}
	args := w.b.tensors()
	if w.state != nil {
		args = append(args[:len(args):len(args)], w.state)
	}
	outs, err := m.execute(exec, programLayerwise, args...)
	if err != nil {
		return err
	}
	res := tensors.MustCopyFlatData[float32](outs[0])
	for _, t := range outs {
		t.FinalizeAll()
	}
	use(res, w.s, w.rowOf)
	return nil
}
