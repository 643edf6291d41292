package gexph

import (
	"path/filepath"
	"strings"

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

// BackendLabel shortens a backend spec to what a log or a report needs to say where a
// computation ran: a PJRT plugin's path becomes its platform ("xla:/opt/…/xla_cuda_plugin.so,tf32=false"
// is "xla:cuda,tf32=false"; "pjrt_c_api_cpu_plugin.so" is "cpu"); other specs are kept,
// and "" is the default backend's name.
func BackendLabel(spec string) string {
	if spec == "" {
		return DefaultBackend
	}
	name, config, ok := strings.Cut(spec, ":")
	if !ok || !strings.Contains(config, "/") {
		return spec
	}
	plugin, options, _ := strings.Cut(config, ",")
	platform := strings.TrimSuffix(filepath.Base(plugin), ".so")
	platform = strings.TrimSuffix(platform, "_plugin")
	for _, prefix := range []string{"pjrt_c_api_", "pjrt_plugin_", "xla_", "libpjrt_"} {
		platform = strings.TrimPrefix(platform, prefix)
	}
	if options != "" {
		platform += "," + options
	}
	return name + ":" + platform
}
