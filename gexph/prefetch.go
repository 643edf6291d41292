package gexph

import (
	"context"
	"strings"

	"github.com/gexph/gexph/data"
)

// DefaultPrefetch is the number of batches built ahead of the step that uses them on a
// backend (ModelOptions.Prefetch 0): one on an accelerator, where the device would
// otherwise wait while the host builds the next batch (interaction graph, positional
// encodings, index arrays); none on the pure-Go backend, whose steps already keep every
// core busy.
func DefaultPrefetch(backend string) int {
	if kind, _, _ := strings.Cut(backend, ":"); kind == "" || kind == DefaultBackend {
		return 0
	}
	return 1
}

// prefetchDepth is the model's number of batches built ahead (ModelOptions.Prefetch).
func (m *Model) prefetchDepth() int {
	switch {
	case m.prefetch < 0:
		return 0
	case m.prefetch == 0:
		return DefaultPrefetch(m.backendName)
	}
	return m.prefetch
}

// builtBatch is a batch built by a batchStream, or the error building it gave.
type builtBatch struct {
	b   *Batch
	err error
}

// batchStream hands over the batches of a list of graph groups in order, built up to
// depth ahead on a goroutine of their own while the caller runs steps on the ones before
// (depth 0: built on the caller's goroutine when asked for). Building a batch reads the
// model's fixed options and the data set only, and the expander of each graph is drawn
// from the graph's own seed, so the batches are the same whatever the depth.
type batchStream struct {
	m      *Model
	ds     *data.Dataset
	parts  [][]int
	pad    *padding
	next   int
	ch     chan builtBatch
	cancel context.CancelFunc
	done   chan struct{}
}

// streamBatches starts a stream of the batches of parts of ds (graph indices, one
// batch each), padded by pad (the model's training or evaluation padding). The caller
// takes them with Next and must call Stop.
func (m *Model) streamBatches(ctx context.Context, ds *data.Dataset, parts [][]int, pad *padding) *batchStream {
	s := &batchStream{m: m, ds: ds, parts: parts, pad: pad}
	depth := m.prefetchDepth()
	if depth == 0 || len(parts) < 2 {
		return s
	}
	ctx, s.cancel = context.WithCancel(ctx)
	s.ch, s.done = make(chan builtBatch, depth-1), make(chan struct{})
	go func() {
		defer close(s.done)
		defer close(s.ch)
		for _, part := range parts {
			b, err := m.buildBatch(ds, part, nil, nil, pad)
			if err == nil {
				b.tensors() // the host tensors too, before the step asks
			}
			select {
			case s.ch <- builtBatch{b, err}:
			case <-ctx.Done():
				if b != nil {
					b.Release()
				}
				return
			}
			if err != nil {
				return
			}
		}
	}()
	return s
}

// Next returns the next batch (nil when all were handed over) or the error building it
// gave.
func (s *batchStream) Next() (*Batch, error) {
	if s.next >= len(s.parts) {
		return nil, nil
	}
	s.next++
	if s.ch == nil {
		return s.m.buildBatch(s.ds, s.parts[s.next-1], nil, nil, s.pad)
	}
	r, ok := <-s.ch
	if !ok {
		return nil, context.Canceled
	}
	return r.b, r.err
}

// Stop ends the stream: the goroutine stops and the batches it built that were not
// taken are released.
func (s *batchStream) Stop() {
	if s.ch == nil {
		return
	}
	s.cancel()
	for r := range s.ch {
		if r.b != nil {
			r.b.Release()
		}
	}
	<-s.done
}
