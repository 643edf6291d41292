package gexph

import (
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
