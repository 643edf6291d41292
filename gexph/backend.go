package gexph

import (
	"github.com/gexph/gexph/layers"
	"github.com/gomlx/compute"
)

// DefaultBackend is the backend used when none is named: GoMLX's pure-Go backend.
const DefaultBackend = layers.DefaultBackend

// NewBackend returns the compute backend named by spec, "<name>[:<config>]":
//
//   - "" or "go": the pure-Go backend ("go:parallelism=N" limits its threads);
//   - "xla:cpu": XLA on the CPU;
//   - "xla:/abs/path/to/pjrt_plugin.so": XLA with that PJRT plugin (e.g. CUDA).
//
// XLA needs a binary built with the "xla" build tag (and cgo); without it an "xla" spec
// is an error.
func NewBackend(spec string) (compute.Backend, error) { return layers.NewBackend(spec) }
