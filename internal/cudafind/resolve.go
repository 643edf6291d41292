package cudafind

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
)

// ErrNoXLA says that the program was built without the XLA backend, which a GPU needs.
var ErrNoXLA = errors.New("this gexph was built without XLA, which a GPU needs: build it with `make build-xla` (CGO_ENABLED=1 go build -tags xla)")

// Choice is what Resolve made of a backend spec.
type Choice struct {
	// Spec is the spec for the compute backends: "go", "xla:/…/xla_cuda_plugin.so,tf32=false",
	// or the spec given.
	Spec string
	// Install is the plugin that Spec loads, nil where it names none that Find found.
	Install *Install
	// Note says what "auto" chose and why; empty for other specs.
	Note string
}

// Resolve turns the backend names that stand for this machine's GPU into a spec of the
// compute backends, given whether the program has the XLA backend (xla):
//
//   - "cuda[,OPTIONS]" and "xla:cuda[,OPTIONS]": "xla:PLUGIN[,OPTIONS]", PLUGIN the one
//     Find finds; an error (ErrNotFound) where it finds none, before anything else is
//     done (a plugin elsewhere is given by its path, or GEXPH_PJRT_PLUGIN);
//   - "auto": "xla:PLUGIN" where the program has XLA, the machine an NVIDIA GPU
//     (HasDevice) and Find a plugin; else "go". Its Note says which and why;
//   - "xla:/path/to/xla_cuda_plugin.so[,OPTIONS]": kept, with the CUDA files beside
//     that plugin in Install.
//
// A GPU spec in a program without XLA is an error (ErrNoXLA). Every other spec is
// returned as it is, and nothing is searched for it.
func (f Finder) Resolve(spec string, xla bool) (Choice, error) {
	if spec == "auto" {
		return f.auto(xla), nil
	}
	if strings.HasPrefix(spec, "auto,") {
		return Choice{}, fmt.Errorf("backend %q: auto takes no options (they are the GPU's: -backend cuda%s)", spec, strings.TrimPrefix(spec, "auto"))
	}
	rest, ok := strings.CutPrefix(spec, "xla:")
	if !ok {
		rest = spec
	}
	plugin, options, _ := strings.Cut(rest, ",")
	if ok && filepath.IsAbs(plugin) && filepath.Base(plugin) == pluginFile {
		return Choice{Spec: spec, Install: describe(plugin, "-backend")}, nil
	}
	if plugin != "cuda" {
		return Choice{Spec: spec}, nil
	}
	if !xla {
		return Choice{}, fmt.Errorf("backend %q: %w", spec, ErrNoXLA)
	}
	if options != "" {
		options = "," + options
	}
	in, err := f.Find()
	if err != nil {
		return Choice{}, fmt.Errorf("backend %q: %w", spec, err)
	}
	return Choice{Spec: "xla:" + in.Plugin + options, Install: in}, nil
}

// auto chooses the GPU where there is one, XLA and a plugin, else the go backend.
func (f Finder) auto(xla bool) Choice {
	if !xla {
		return Choice{Spec: "go", Note: "auto: go (this gexph has no XLA: `make build-xla` builds one that can use a GPU)"}
	}
	dev, where := f.HasDevice()
	if !dev {
		return Choice{Spec: "go", Note: "auto: go (no NVIDIA GPU: no /proc/driver/nvidia/gpus or /dev/nvidia* here)"}
	}
	in, err := f.Find()
	if err != nil {
		return Choice{Spec: "go", Note: fmt.Sprintf("auto: go (an NVIDIA GPU at %s, but %v)", where, err)}
	}
	return Choice{Spec: "xla:" + in.Plugin, Install: in, Note: fmt.Sprintf("auto: xla:cuda (an NVIDIA GPU at %s; plugin %s)", where, in.Plugin)}
}
