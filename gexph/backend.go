package gexph

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/gexph/gexph/internal/cudafind"
	"github.com/gexph/gexph/layers"
	"github.com/gomlx/compute"
)

// DefaultBackend is the backend used when none is named: GoMLX's pure-Go backend.
const DefaultBackend = layers.DefaultBackend

// NewBackend returns the compute backend named by spec, "<name>[:<config>]":
//
//   - "" or "go": the pure-Go backend ("go:parallelism=N" limits its threads);
//   - "cuda" or "xla:cuda" (",tf32=false" and other options after it): XLA with the
//     CUDA plugin of a pip install of jax-cuda13-pjrt (or jax-cuda12-pjrt) that it
//     finds by itself (GEXPH_PJRT_PLUGIN, python3's jax_plugins, the usual
//     site-packages folders);
//   - "auto": that where the binary has XLA, the machine an NVIDIA GPU and the plugin
//     is found; else "go";
//   - "xla:cpu": XLA on the CPU, with a PJRT CPU plugin installed;
//   - "xla:/abs/path/to/pjrt_plugin.so": XLA with that PJRT plugin.
//
// XLA needs a binary built with the "xla" build tag (and cgo); without it an "xla" spec
// is an error. The CUDA plugin also needs its libraries on LD_LIBRARY_PATH when the
// process starts: the gexph command starts itself again with them (see
// `gexph version` for what it finds); a Go program must be started with that
// environment. Nothing is ever installed: a missing plugin is an error that says what
// to install.
func NewBackend(spec string) (compute.Backend, error) {
	resolved, err := ResolveBackend(spec)
	if err != nil {
		return nil, err
	}
	b, err := layers.NewBackend(resolved)
	if err != nil {
		return nil, backendAdvice(resolved, err)
	}
	return b, nil
}

// ResolveBackend returns the spec that NewBackend builds for spec: "cuda", "xla:cuda"
// and "auto" made into the backend they stand for on this machine (see NewBackend),
// every other spec as it is.
func ResolveBackend(spec string) (string, error) {
	c, err := cudafind.Default().Resolve(spec, HasXLA())
	return c.Spec, err
}

// HasXLA tells whether the program was built with the XLA backend (the "xla" build tag).
func HasXLA() bool { return slices.Contains(compute.List(), "xla") }

// autoinstallAdvice matches go-xla's advice to Go programmers that a PJRT plugin can be
// downloaded by importing its autoinstall package (go-xla v0.4.13, compute/xla/xla.go),
// which a user of gexph cannot follow.
var autoinstallAdvice = regexp.MustCompile(`(,? or | ?\(if you need automatic downloads, )import _ "[^"]*/autoinstall"\)?`)

// backendAdvice returns err, XLA's failure to make the backend spec, with go-xla's
// advice for Go programs replaced by advice for the command's user: what to install and
// which -backend to pass.
func backendAdvice(spec string, err error) error {
	if !autoinstallAdvice.MatchString(err.Error()) {
		return err
	}
	msg := autoinstallAdvice.ReplaceAllString(err.Error(), "")
	plugin, _, _ := strings.Cut(strings.TrimPrefix(spec, "xla:"), ",")
	advice := "gexph installs nothing from the network. XLA on the CPU needs a PJRT CPU plugin " +
		"(pjrt_c_api_cpu_plugin.so, from github.com/gomlx/pjrt-cpu-binaries) in ~/.local/lib/go-xla, " +
		"/usr/local/lib/go-xla or PJRT_PLUGIN_LIBRARY_PATH, or its path: -backend xla:/abs/path/pjrt_c_api_cpu_plugin.so. " +
		"On the CPU, -backend go (the default) needs no plugin. For an NVIDIA GPU: pip install jax-cuda13-pjrt, then -backend cuda"
	if plugin == "cuda" {
		advice = cudafind.ErrNotFound.Error() + ", then -backend cuda"
	}
	return fmt.Errorf("%s\n%s", msg, advice)
}

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
