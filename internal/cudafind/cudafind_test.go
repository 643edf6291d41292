package cudafind

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// writeFiles creates the files (relative path → content) under root.
func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

// cuda13Site writes a site-packages folder as `pip install jax-cuda13-pjrt` leaves it
// (the plugin, its dist-info, and nvidia/cu13 with its libraries, libdevice and ptxas)
// and returns it.
func cuda13Site(t *testing.T, root string) string {
	site := filepath.Join(root, "venv", "lib", "python3.12", "site-packages")
	writeFiles(t, site, map[string]string{
		"jax_plugins/xla_cuda13/xla_cuda_plugin.so":      "ELF",
		"jax_plugins/xla_cuda13/__init__.py":             "",
		"jax_cuda13_pjrt-0.11.2.dist-info/METADATA":      "Metadata-Version: 2.1\nName: jax-cuda13-pjrt\nVersion: 0.11.2\n",
		"nvidia/cu13/lib/libcudart.so.13":                "ELF",
		"nvidia/cu13/nvvm/libdevice/libdevice.10.bc":     "BC",
		"nvidia/cu13/bin/ptxas":                          "#!/bin/sh\n",
		"nvidia/cu13/include/cuda.h":                     "",
		"nvidia/nccl/lib/libnccl.so.2":                   "ELF",
		"nvidia/cu13/share/doc/lib/deep/too/deep/lib/x":  "",
		"jax_cuda13_plugin-0.11.2.dist-info/METADATA":    "Version: 9.9\n",
		"unrelated/lib/libfoo.so":                        "ELF",
		"nvidia/cu13/nvvm/libdevice/not-libdevice.txt":   "",
		"nvidia/cu13/nvvm/lib64/libnvvm.so":              "ELF",
		"nvidia/__init__.py":                             "",
		"jax_plugins/xla_cuda13/LICENSE":                 "",
		"nvidia/cu13/lib/libcublas.so.13":                "ELF",
		"nvidia/cu13/nvvm/libdevice/libdevice.10.bc.sig": "",
	})
	return site
}

// fakePython writes a python3 that prints out (and ignores its arguments) and returns
// its path.
func fakePython(t *testing.T, out string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "python3")
	writeFiles(t, filepath.Dir(p), map[string]string{"python3": "#!/bin/sh\ncat <<'EOF'\n" + out + "EOF\n"})
	return p
}

// env returns a Getenv over vars.
func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

func TestFindReadsAPipInstallThroughPython(t *testing.T) {
	site := cuda13Site(t, t.TempDir())
	py := fakePython(t, filepath.Join(site, "jax_plugins", "xla_cuda13")+"\n"+site+"\n/usr/lib/python312.zip\n")
	in, err := Finder{Getenv: env(nil), Python: py}.Find()
	if err != nil {
		t.Fatal(err)
	}
	want := &Install{
		Plugin: filepath.Join(site, "jax_plugins/xla_cuda13/xla_cuda_plugin.so"), Package: "jax-cuda13-pjrt", Version: "0.11.2",
		FoundBy: "python3",
		LibDirs: []string{filepath.Join(site, "nvidia/cu13/lib"), filepath.Join(site, "nvidia/cu13/nvvm/lib64"), filepath.Join(site, "nvidia/nccl/lib")},
		DataDir: filepath.Join(site, "nvidia/cu13"), PtxasDir: filepath.Join(site, "nvidia/cu13/bin"),
	}
	if !reflect.DeepEqual(in, want) {
		t.Errorf("Find:\n got %+v\nwant %+v", in, want)
	}
}

// Without an import system that knows the plugin (no python3, or another
// interpreter), the site-packages folders are searched: python3's, then the usual
// ones; a CUDA 12 install keeps its libraries in one folder per nvidia package.
func TestFindSearchesSitePackagesFolders(t *testing.T) {
	root := t.TempDir()
	site := filepath.Join(root, "venv", "lib", "python3.11", "site-packages")
	writeFiles(t, site, map[string]string{
		"jax_plugins/xla_cuda12/xla_cuda_plugin.so":         "ELF",
		"jax_cuda12_pjrt-0.6.0.dist-info/METADATA":          "Name: jax-cuda12-pjrt\nVersion: 0.6.0\n",
		"nvidia/cuda_runtime/lib/libcudart.so.12":           "ELF",
		"nvidia/cublas/lib/libcublas.so.12":                 "ELF",
		"nvidia/cuda_nvcc/nvvm/libdevice/libdevice.10.bc":   "BC",
		"nvidia/cuda_nvcc/bin/ptxas":                        "#!/bin/sh\n",
		"nvidia/cuda_nvcc/nvvm/libdevice/README-not-device": "",
	})
	want := []string{filepath.Join(site, "nvidia/cublas/lib"), filepath.Join(site, "nvidia/cuda_runtime/lib")}
	for name, f := range map[string]Finder{
		"python3's folders": {Getenv: env(nil), Python: fakePython(t, "\n"+site+"\n")},
		"a glob":            {Getenv: env(map[string]string{"VIRTUAL_ENV": filepath.Join(root, "venv")}), SiteGlobs: []string{"$VIRTUAL_ENV/lib/python3*/site-packages", "$CONDA_PREFIX/lib/python3*/site-packages"}},
	} {
		in, err := f.Find()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if in.Plugin != filepath.Join(site, "jax_plugins/xla_cuda12/xla_cuda_plugin.so") || in.FoundBy != "site-packages" ||
			in.Package != "jax-cuda12-pjrt" || in.Version != "0.6.0" || !reflect.DeepEqual(in.LibDirs, want) ||
			in.DataDir != filepath.Join(site, "nvidia/cuda_nvcc") || in.PtxasDir != filepath.Join(site, "nvidia/cuda_nvcc/bin") {
			t.Errorf("%s: %+v", name, in)
		}
	}
}

func TestFindTakesThePluginNamedByTheEnvironmentFirst(t *testing.T) {
	site := cuda13Site(t, t.TempDir())
	other := filepath.Join(t.TempDir(), "my_plugin.so")
	writeFiles(t, filepath.Dir(other), map[string]string{"my_plugin.so": "ELF"})
	py := fakePython(t, filepath.Join(site, "jax_plugins", "xla_cuda13")+"\n")
	in, err := Finder{Getenv: env(map[string]string{PluginEnv: other}), Python: py}.Find()
	if err != nil || in.Plugin != other || in.FoundBy != PluginEnv || in.Package != "" || len(in.LibDirs) != 0 {
		t.Errorf("Find with %s set: %+v, %v; want that file, nothing beside it", PluginEnv, in, err)
	}
	missing := filepath.Join(t.TempDir(), "gone.so")
	_, err = Finder{Getenv: env(map[string]string{PluginEnv: missing}), Python: py}.Find()
	if err == nil || !strings.Contains(err.Error(), PluginEnv+"="+missing) {
		t.Errorf("Find with %s naming a missing file: %v, want an error naming it", PluginEnv, err)
	}
}

func TestFindWithoutAPluginSaysHowToInstallOne(t *testing.T) {
	empty := t.TempDir()
	_, err := Finder{Getenv: env(map[string]string{"HOME": empty}), Python: fakePython(t, "\n"+empty+"\n"), SiteGlobs: []string{"$HOME/*"}}.Find()
	if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "pip install jax-cuda13-pjrt") {
		t.Errorf("no plugin: %v, want ErrNotFound saying what to install", err)
	}
	if _, err := (Finder{Getenv: env(nil), Python: filepath.Join(empty, "no-python")}).Find(); !errors.Is(err, ErrNotFound) {
		t.Errorf("no python3: %v, want ErrNotFound", err)
	}
}

func TestHasDeviceReadsTheDriversFiles(t *testing.T) {
	root := t.TempDir()
	if ok, _ := (Finder{Root: root}).HasDevice(); ok {
		t.Error("an empty root has a GPU")
	}
	writeFiles(t, root, map[string]string{"dev/nvidiactl": "", "dev/nvidia-uvm": ""})
	if ok, _ := (Finder{Root: root}).HasDevice(); ok {
		t.Error("nvidiactl alone (a driver without a GPU) counts as a GPU")
	}
	writeFiles(t, root, map[string]string{"dev/nvidia0": ""})
	if ok, where := (Finder{Root: root}).HasDevice(); !ok || where != filepath.Join(root, "dev/nvidia0") {
		t.Errorf("/dev/nvidia0: %v at %q", ok, where)
	}
	writeFiles(t, root, map[string]string{"proc/driver/nvidia/gpus/0000:18:00.0/information": "Model: NVIDIA H200\n"})
	if ok, where := (Finder{Root: root}).HasDevice(); !ok || where != filepath.Join(root, "proc/driver/nvidia/gpus") {
		t.Errorf("a GPU under /proc: %v at %q", ok, where)
	}
}
