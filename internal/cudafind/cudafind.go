// Package cudafind finds what XLA needs to run on an NVIDIA GPU of the machine it runs
// on, as a pip install of JAX's CUDA plugin leaves it (jax-cuda13-pjrt or
// jax-cuda12-pjrt): the PJRT plugin (jax_plugins/xla_cuda13/xla_cuda_plugin.so in a
// site-packages folder), the CUDA libraries of the nvidia-* packages beside it, the
// folder holding nvvm/libdevice and ptxas; and it says which environment variables a
// process needs to use them. It is plain Go (no cgo), so that all of it is tested in
// builds without XLA; tools/gpu/check.sh does the same in the shell.
package cudafind

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// PluginEnv names the plugin's path, taken before any search.
const PluginEnv = "GEXPH_PJRT_PLUGIN"

// ErrNotFound says that no plugin was found, and how to install one.
var ErrNotFound = errors.New("no CUDA plugin found: pip install jax-cuda13-pjrt (or set " + PluginEnv + " to its xla_cuda_plugin.so)")

// pluginDirs are the plugin packages' folders under jax_plugins, newest CUDA first.
var pluginDirs = []string{"xla_cuda13", "xla_cuda12"}

// pluginFile is the plugin's file name in its folder.
const pluginFile = "xla_cuda_plugin.so"

// Install is a CUDA plugin found on this machine and the CUDA files beside it.
type Install struct {
	// Plugin is the plugin's absolute path.
	Plugin string `json:"plugin"`
	// Package and Version name the pip package it came from ("jax-cuda13-pjrt",
	// "0.11.2"), where its dist-info folder says (else empty).
	Package string `json:"package,omitempty"`
	Version string `json:"version,omitempty"`
	// FoundBy says how it was found: PluginEnv, "python3" (the import system's
	// jax_plugins) or "site-packages" (a search of the usual folders).
	FoundBy string `json:"found_by"`
	// LibDirs are the nvidia/*/lib folders beside it, for LD_LIBRARY_PATH.
	LibDirs []string `json:"lib_dirs,omitempty"`
	// DataDir holds nvvm/libdevice (XLA_FLAGS=--xla_gpu_cuda_data_dir), and PtxasDir
	// the ptxas program (PATH); empty where there is none.
	DataDir  string `json:"data_dir,omitempty"`
	PtxasDir string `json:"ptxas_dir,omitempty"`
}

// Finder says where to look. Its zero value searches nothing: use Default.
type Finder struct {
	// Getenv reads the environment (os.Getenv).
	Getenv func(string) string
	// Python is the interpreter asked for its jax_plugins and site-packages folders
	// ("python3"); empty asks none.
	Python string
	// SiteGlobs are further site-packages folders to search, as filepath.Glob
	// patterns in which $NAME is replaced by Getenv's value (patterns with an empty
	// variable are skipped).
	SiteGlobs []string
	// Root is the file system root under which the GPU's driver files are looked for
	// (HasDevice): "/" on a real machine.
	Root string
}

// Default returns the Finder of this process: its environment, python3 on PATH, the
// usual folders of pip installs (system, user, virtual and conda environments, and
// /opt/*/.venv) and the real root.
func Default() Finder {
	return Finder{
		Getenv: os.Getenv,
		Python: "python3",
		SiteGlobs: []string{
			"$VIRTUAL_ENV/lib/python3*/site-packages", "$CONDA_PREFIX/lib/python3*/site-packages",
			"$HOME/.local/lib/python3*/site-packages",
			"/usr/local/lib/python3*/dist-packages", "/usr/local/lib/python3*/site-packages",
			"/usr/lib/python3/dist-packages", "/opt/*/.venv/lib/python3*/site-packages",
		},
		Root: "/",
	}
}

// Find returns the CUDA plugin of this machine: the file PluginEnv names (which must
// exist), else the one python3's import system finds (jax_plugins.xla_cuda13, then
// xla_cuda12), else the first in python3's site-packages folders and SiteGlobs; with
// the CUDA files beside it. It returns ErrNotFound where there is none.
func (f Finder) Find() (*Install, error) {
	if p := f.Getenv(PluginEnv); p != "" {
		abs, err := filepath.Abs(p)
		if err == nil {
			_, err = os.Stat(abs)
		}
		if err != nil {
			return nil, fmt.Errorf("%s=%s: %w", PluginEnv, p, err)
		}
		return describe(abs, PluginEnv), nil
	}
	specDir, sites := f.askPython()
	if specDir != "" && isFile(filepath.Join(specDir, pluginFile)) {
		return describe(filepath.Join(specDir, pluginFile), "python3"), nil
	}
	for _, site := range append(sites, f.globSites()...) {
		for _, d := range pluginDirs {
			if p := filepath.Join(site, "jax_plugins", d, pluginFile); isFile(p) {
				return describe(p, "site-packages"), nil
			}
		}
	}
	return nil, ErrNotFound
}

// pythonQuery prints the folder of the first plugin package the import system finds
// (or an empty line), then the interpreter's site-packages folders and sys.path.
const pythonQuery = `import importlib.util, os, site, sys
d = ""
for m in ("jax_plugins.xla_cuda13", "jax_plugins.xla_cuda12"):
    try:
        s = importlib.util.find_spec(m)
    except Exception:
        s = None
    if s and s.origin:
        d = os.path.dirname(s.origin)
        break
print(d)
print("\n".join(site.getsitepackages() + [site.getusersitepackages()] + sys.path))
`

// askPython returns the plugin package's folder that Python's import system finds
// ("" for none) and its site-packages folders; nothing where there is no interpreter
// or it fails (within 20 seconds).
func (f Finder) askPython() (specDir string, sites []string) {
	if f.Python == "" {
		return "", nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, f.Python, "-c", pythonQuery).Output()
	if err != nil {
		return "", nil
	}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for first := true; sc.Scan(); first = false {
		line := strings.TrimSpace(sc.Text())
		switch {
		case first:
			specDir = line
		case line != "" && filepath.IsAbs(line):
			sites = append(sites, line)
		}
	}
	return specDir, sites
}

// globSites expands SiteGlobs.
func (f Finder) globSites() []string {
	var sites []string
	for _, pattern := range f.SiteGlobs {
		empty := false
		p := os.Expand(pattern, func(name string) string {
			v := f.Getenv(name)
			empty = empty || v == ""
			return v
		})
		if empty {
			continue
		}
		matches, _ := filepath.Glob(p)
		sites = append(sites, matches...)
	}
	return sites
}

// describe returns the Install of the plugin at path: its package and version from
// the dist-info folder beside its site-packages folder, and the CUDA files under that
// folder's nvidia package (as nvidia/<pkg>/lib for CUDA 12 wheels, nvidia/cu13/lib for
// CUDA 13).
func describe(path, foundBy string) *Install {
	in := &Install{Plugin: path, FoundBy: foundBy}
	pkgDir := filepath.Dir(path)
	site := filepath.Dir(filepath.Dir(pkgDir))
	if strings.HasPrefix(filepath.Base(pkgDir), "xla_cuda") {
		in.Package = "jax-" + strings.TrimPrefix(filepath.Base(pkgDir), "xla_") + "-pjrt"
		in.Version = distVersion(site, in.Package)
	}
	nv := filepath.Join(site, "nvidia")
	filepath.WalkDir(nv, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(nv, p)
		depth := strings.Count(rel, string(filepath.Separator)) + 1
		switch {
		case d.IsDir() && (d.Name() == "lib" || d.Name() == "lib64") && depth <= 3:
			in.LibDirs = append(in.LibDirs, p)
		case !d.IsDir() && d.Name() == "ptxas" && in.PtxasDir == "":
			in.PtxasDir = filepath.Dir(p)
		case !d.IsDir() && strings.HasPrefix(d.Name(), "libdevice") && strings.HasSuffix(d.Name(), ".bc") &&
			filepath.Base(filepath.Dir(p)) == "libdevice" && filepath.Base(filepath.Dir(filepath.Dir(p))) == "nvvm" && in.DataDir == "":
			in.DataDir = filepath.Dir(filepath.Dir(filepath.Dir(p)))
		}
		return nil
	})
	slices.Sort(in.LibDirs)
	return in
}

// distVersion returns the version that the pip package pkg's METADATA in site records,
// or "".
func distVersion(site, pkg string) string {
	metas, _ := filepath.Glob(filepath.Join(site, strings.ReplaceAll(pkg, "-", "_")+"-*.dist-info", "METADATA"))
	for _, meta := range metas {
		raw, err := os.ReadFile(meta)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(raw), "\n") {
			if v, ok := strings.CutPrefix(line, "Version:"); ok {
				return strings.TrimSpace(v)
			}
		}
	}
	return ""
}

// isFile tells whether path is an existing regular file.
func isFile(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}

// HasDevice tells whether the machine has an NVIDIA GPU whose driver is loaded, and
// where that shows: a GPU listed under /proc/driver/nvidia/gpus, else a /dev/nvidiaN
// device.
func (f Finder) HasDevice() (bool, string) {
	gpus := filepath.Join(f.Root, "proc", "driver", "nvidia", "gpus")
	if entries, err := os.ReadDir(gpus); err == nil && len(entries) > 0 {
		return true, gpus
	}
	devs, _ := filepath.Glob(filepath.Join(f.Root, "dev", "nvidia[0-9]*"))
	if len(devs) > 0 {
		return true, devs[0]
	}
	return false, ""
}
