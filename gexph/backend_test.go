package gexph

import (
	"errors"
	"strings"
	"testing"
)

func TestNewBackend(t *testing.T) {
	for _, spec := range []string{"", "go"} {
		b, err := NewBackend(spec)
		if err != nil {
			t.Fatalf("NewBackend(%q): %v", spec, err)
		}
		if b.Name() == "" {
			t.Errorf("NewBackend(%q) has no name", spec)
		}
	}
	if _, err := NewBackend("tpu:0"); err == nil || !strings.Contains(err.Error(), `"tpu"`) || !strings.Contains(err.Error(), `"go"`) {
		t.Errorf("unknown backend: error %v, want the name and the available ones", err)
	}
}

// TestBackendLabelNamesThePlatform holds BackendLabel to the labels a log shows: a
// plugin's path shortened to its platform with the options kept, other specs as given.
func TestBackendLabelNamesThePlatform(t *testing.T) {
	for spec, want := range map[string]string{
		"":                 DefaultBackend,
		"go":               "go",
		"go:parallelism=2": "go:parallelism=2",
		"xla:cpu":          "xla:cpu",
		"xla:/opt/venv/site-packages/jax_plugins/xla_cuda13/xla_cuda_plugin.so":            "xla:cuda",
		"xla:/opt/venv/site-packages/jax_plugins/xla_cuda13/xla_cuda_plugin.so,tf32=false": "xla:cuda,tf32=false",
		"xla:/usr/lib/pjrt_c_api_cpu_plugin.so":                                            "xla:cpu",
	} {
		if got := BackendLabel(spec); got != want {
			t.Errorf("BackendLabel(%q) = %q, want %q", spec, got, want)
		}
	}
}

// XLA's failure to find a plugin comes with go-xla's advice for Go programs (import its
// autoinstall package); NewBackend replaces it with what the command's user can do:
// what to install and which -backend to pass. Its own words on what it looked for stay.
func TestBackendAdviceReplacesGoXLAsAdviceForGoPrograms(t *testing.T) {
	// go-xla v0.4.13's messages (compute/xla/xla.go), wrapped as layers.NewBackend does.
	noPlugins := errors.New(`backend "xla:cpu": no plugins found for backend "xla" -- either use the absolute path to the pluginName as the configuration, set PJRT_PLUGIN_LIBRARY_PATH to the path where to search for PJRT plugins, or import _ "github.com/gomlx/go-xla/compute/xla/autoinstall"`)
	notThat := errors.New(`backend "xla:cuda": Plugin "cuda" for backend "xla" not found: available plugins found ["cpu"] (if you need automatic downloads, import _ "github.com/gomlx/go-xla/compute/xla/autoinstall")`)
	for _, tc := range []struct {
		spec string
		err  error
		want []string
	}{
		{"xla:cpu", noPlugins, []string{`no plugins found for backend "xla"`, "PJRT_PLUGIN_LIBRARY_PATH", "pjrt_c_api_cpu_plugin.so", "-backend go", "pip install jax-cuda13-pjrt, then -backend cuda"}},
		{"xla:cuda,tf32=false", notThat, []string{`available plugins found ["cpu"]`, "pip install jax-cuda13-pjrt", "then -backend cuda"}},
	} {
		got := backendAdvice(tc.spec, tc.err).Error()
		if strings.Contains(got, "autoinstall") || strings.Contains(got, "import _") {
			t.Errorf("%s: %q still gives go-xla's advice for Go programs", tc.spec, got)
		}
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %q lacks %q", tc.spec, got, w)
			}
		}
	}
	other := errors.New(`backend "xla:/x.so": failed to load PJRT plugin`)
	if got := backendAdvice("xla:/x.so", other); got != other {
		t.Errorf("another failure: %v, want it unchanged", got)
	}
}
