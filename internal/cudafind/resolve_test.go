package cudafind

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// The GPU's names become the plugin's path with their options kept; auto takes the GPU
// only with XLA, a device and a plugin, and says why not otherwise; other specs pass
// untouched.
func TestResolveTurnsTheGPUsNamesIntoThePlugin(t *testing.T) {
	root := t.TempDir()
	site := cuda13Site(t, root)
	plugin := filepath.Join(site, "jax_plugins/xla_cuda13/xla_cuda_plugin.so")
	found := Finder{Getenv: env(map[string]string{"VIRTUAL_ENV": filepath.Join(root, "venv")}),
		SiteGlobs: []string{"$VIRTUAL_ENV/lib/python3*/site-packages"}, Root: root}
	none := Finder{Getenv: env(nil), Root: root}
	writeFiles(t, root, map[string]string{"dev/nvidia0": ""})
	noDevice := found
	noDevice.Root = t.TempDir()
	for _, tc := range []struct {
		name      string
		f         Finder
		spec      string
		xla       bool
		want      string
		installed bool
		note      string
	}{
		{"cuda", found, "cuda", true, "xla:" + plugin, true, ""},
		{"xla:cuda with options", found, "xla:cuda,tf32=false", true, "xla:" + plugin + ",tf32=false", true, ""},
		{"auto with everything", found, "auto", true, "xla:" + plugin, true, "auto: xla:cuda (an NVIDIA GPU at " + filepath.Join(root, "dev/nvidia0")},
		{"auto without XLA", found, "auto", false, "go", false, "auto: go (this gexph has no XLA"},
		{"auto without a GPU", noDevice, "auto", true, "go", false, "auto: go (no NVIDIA GPU"},
		{"auto without a plugin", none, "auto", true, "go", false, "auto: go (an NVIDIA GPU at " + filepath.Join(root, "dev/nvidia0") + ", but no CUDA plugin found: pip install jax-cuda13-pjrt"},
		{"go", found, "go", true, "go", false, ""},
		{"xla:cpu", found, "xla:cpu", false, "xla:cpu", false, ""},
		{"a plugin's path", found, "xla:/x/y.so,tf32=false", true, "xla:/x/y.so,tf32=false", false, ""},
		{"the CUDA plugin's path", none, "xla:" + plugin + ",tf32=false", true, "xla:" + plugin + ",tf32=false", true, ""},
	} {
		c, err := tc.f.Resolve(tc.spec, tc.xla)
		if err != nil || c.Spec != tc.want || (c.Install != nil) != tc.installed || !strings.HasPrefix(c.Note, tc.note) || (tc.note == "") != (c.Note == "") {
			t.Errorf("%s: %+v, %v; want spec %q, install %v, note %q…", tc.name, c, err, tc.want, tc.installed, tc.note)
		}
	}
	for spec, want := range map[string]string{"cuda": "make build-xla", "xla:cuda": "make build-xla", "auto,tf32=false": "-backend cuda,tf32=false"} {
		_, err := found.Resolve(spec, false)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s without XLA: %v, want an error saying %q", spec, err, want)
		}
	}
	if _, err := found.Resolve("cuda", false); !errors.Is(err, ErrNoXLA) {
		t.Errorf("cuda without XLA: %v, want ErrNoXLA", err)
	}
	if _, err := none.Resolve("xla:cuda,tf32=false", true); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), `backend "xla:cuda,tf32=false": no CUDA plugin found: pip install jax-cuda13-pjrt`) {
		t.Errorf("cuda without a plugin: %v, want ErrNotFound naming the spec", err)
	}
}
