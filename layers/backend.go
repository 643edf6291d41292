package layers

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gomlx/compute"
	_ "github.com/gomlx/compute/gobackend" // the pure-Go backend, always available
)

// DefaultBackend is the backend used when none is named: GoMLX's pure-Go backend.
const DefaultBackend = "go"

// NewBackend returns the compute backend named by spec, "<name>[:<config>]":
//
//   - "" or "go": the pure-Go backend ("go:parallelism=N" limits its threads);
//   - "xla:cpu": XLA on the CPU;
//   - "xla:/abs/path/to/pjrt_plugin.so": XLA with that PJRT plugin (e.g. CUDA).
//
// XLA needs a binary built with the "xla" build tag (and cgo); without it an "xla" spec
// is an error. Nothing is ever installed from the network.
func NewBackend(spec string) (b compute.Backend, err error) {
	if spec == "" {
		spec = DefaultBackend
	}
	name, _, _ := strings.Cut(spec, ":")
	if !slices.Contains(compute.List(), name) {
		if name == "xla" {
			return nil, fmt.Errorf("backend %q: this binary was built without XLA support (rebuild with -tags xla)", spec)
		}
		avail := compute.List()
		slices.Sort(avail)
		return nil, fmt.Errorf("backend %q: unknown backend %q (available: %q)", spec, name, avail)
	}
	defer func() {
		if r := recover(); r != nil {
			b, err = nil, fmt.Errorf("backend %q: %v", spec, r)
		}
	}()
	b, err = compute.NewWithConfig(spec)
	if err != nil {
		return nil, fmt.Errorf("backend %q: %w", spec, err)
	}
	return b, nil
}
