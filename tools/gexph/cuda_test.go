package main

import (
	"encoding/json"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gexph/gexph/internal/cudafind"
)

// pipSite lays out under root a site-packages folder as `pip install jax-cuda13-pjrt`
// leaves it and returns the folder and the plugin's path.
func pipSite(t *testing.T, root string) (site, plugin string) {
	t.Helper()
	site = filepath.Join(root, "lib", "python3.12", "site-packages")
	for rel, text := range map[string]string{
		"jax_plugins/xla_cuda13/xla_cuda_plugin.so":  "",
		"jax_cuda13_pjrt-0.11.2.dist-info/METADATA":  "Name: jax-cuda13-pjrt\nVersion: 0.11.2\n",
		"nvidia/cu13/lib/libcudart.so.13":            "",
		"nvidia/cu13/nvvm/libdevice/libdevice.10.bc": "",
		"nvidia/cu13/bin/ptxas":                      "",
	} {
		p := filepath.Join(site, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return site, filepath.Join(site, "jax_plugins", "xla_cuda13", "xla_cuda_plugin.so")
}

// gpuDocCommands returns the command lines of the first ```sh block of docs/GPU.md's
// "Your own GPU" section.
func gpuDocCommands(t *testing.T) []string {
	t.Helper()
	raw, err := os.ReadFile("../../docs/GPU.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(raw), "\n## Your own GPU\n")
	if ok {
		_, section, ok = strings.Cut(section, "```sh\n")
	}
	if ok {
		section, _, ok = strings.Cut(section, "\n```")
	}
	if !ok {
		t.Fatal(`docs/GPU.md has no "## Your own GPU" section with a sh block`)
	}
	return strings.Split(section, "\n")
}

// The three commands of docs/GPU.md's "Your own GPU", run dry: the package the first
// installs is the one the search looks for and advises; the second is a make target
// that builds build/gexph with the xla tag, recording the commit; the third parses as
// a train command (refused here only because this test binary has no XLA), and its
// -backend cuda, given a pip install laid out as the first command leaves it and a
// python3 that knows it, becomes the plugin's path with a restart whose environment
// holds what the plugin needs.
func TestGPUDocsCommandsRunDry(t *testing.T) {
	cmds := gpuDocCommands(t)
	if len(cmds) != 3 || cmds[0] != "pip install jax-cuda13-pjrt" || cmds[1] != "make build-xla" || !strings.HasPrefix(cmds[2], "build/gexph train ") {
		t.Fatalf("docs/GPU.md's commands %q, want pip install jax-cuda13-pjrt, make build-xla, build/gexph train …", cmds)
	}
	if !strings.Contains(cudafind.ErrNotFound.Error(), cmds[0]) {
		t.Errorf("the search's advice %q is not the docs' %q", cudafind.ErrNotFound, cmds[0])
	}
	makefile, err := os.ReadFile("../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	recipe := regexp.MustCompile(`(?m)^build-xla:\n\t(.*)$`).FindSubmatch(makefile)
	if recipe == nil || !strings.Contains(string(makefile), "GEXPH     := $(BUILD)/gexph") {
		t.Fatal("the Makefile has no build-xla target building $(GEXPH) = build/gexph")
	}
	for _, want := range []string{"CGO_ENABLED=1", "-tags xla", "-buildvcs=auto", "-o $(GEXPH) ./tools/gexph"} {
		if !strings.Contains(string(recipe[1]), want) {
			t.Errorf("make build-xla runs %q, which lacks %s", recipe[1], want)
		}
	}

	args := strings.Fields(strings.TrimPrefix(cmds[2], "build/gexph "))
	at := slices.Index(args, "-backend")
	if at < 0 || at+1 == len(args) || args[at+1] != "cuda" {
		t.Fatalf("%q does not pass -backend cuda", cmds[2])
	}
	code, _, errOut := runCLI(t, args...)
	if code != 1 || !strings.Contains(errOut, "make build-xla") || strings.Contains(errOut, "flag provided but not defined") {
		t.Errorf("%s without XLA: exit %d, %q; want the flags parsed and the advice to make build-xla", cmds[2], code, errOut)
	}

	site, plugin := pipSite(t, t.TempDir())
	py := filepath.Join(t.TempDir(), "python3")
	if err := os.WriteFile(py, []byte("#!/bin/sh\necho "+filepath.Dir(plugin)+"\necho "+site+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv(cudafind.PluginEnv, "")
	t.Setenv("LD_LIBRARY_PATH", "/opt/lib")
	t.Setenv("XLA_FLAGS", "")
	t.Setenv("GOPJRT_CUDA_CHECKS", "")
	t.Setenv("PATH", os.Getenv("PATH"))
	t.Setenv(cudafind.ReexecMarker, "")
	os.Unsetenv(cudafind.ReexecMarker) // set, even empty, it would stop the restart
	finder := cudafind.Finder{Getenv: os.Getenv, Python: py, Root: t.TempDir()}
	fs := flag.NewFlagSet("train", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	backend := fs.String("backend", "go", "")
	if err := fs.Parse(args[at : at+2]); err != nil {
		t.Fatal(err)
	}
	var restart []string
	errRestarted := errors.New("restarted")
	err = useBackend(fs, finder, true, func(env []string) error { restart = env; return errRestarted })
	if !errors.Is(err, errRestarted) {
		t.Fatalf("useBackend: %v, want the restart", err)
	}
	nv := filepath.Join(site, "nvidia", "cu13")
	for _, want := range []string{
		"LD_LIBRARY_PATH=" + filepath.Join(nv, "lib") + ":/opt/lib", "XLA_FLAGS=--xla_gpu_cuda_data_dir=" + nv,
		"GOPJRT_CUDA_CHECKS=0", cudafind.ReexecMarker + "=1",
	} {
		if !slices.Contains(restart, want) {
			t.Errorf("the restart's environment lacks %s: %q", want, restart)
		}
	}
	if !slices.ContainsFunc(restart, func(kv string) bool { return strings.HasPrefix(kv, "PATH="+filepath.Join(nv, "bin")+":") }) {
		t.Errorf("the restart's PATH does not start with ptxas's folder: %q", restart)
	}

	// The restarted process: the loader has its folders; the rest is set in place and
	// the run gets the plugin's path.
	for _, kv := range restart {
		if k, v, _ := strings.Cut(kv, "="); k == "LD_LIBRARY_PATH" || k == cudafind.ReexecMarker {
			t.Setenv(k, v)
		}
	}
	fs.Set("backend", "cuda")
	if err := useBackend(fs, finder, true, func([]string) error { return errors.New("started a second time") }); err != nil {
		t.Fatal(err)
	}
	if *backend != "xla:"+plugin || os.Getenv("XLA_FLAGS") != "--xla_gpu_cuda_data_dir="+nv || os.Getenv("GOPJRT_CUDA_CHECKS") != "0" {
		t.Errorf("after the restart: -backend %q, XLA_FLAGS %q, GOPJRT_CUDA_CHECKS %q", *backend, os.Getenv("XLA_FLAGS"), os.Getenv("GOPJRT_CUDA_CHECKS"))
	}
}

// The go build lines of the README and docs/GPU.md that build the command keep its
// commit: -buildvcs=auto, which a GOFLAGS=-buildvcs=false does not override.
func TestDocumentedBuildsRecordTheCommit(t *testing.T) {
	for _, doc := range []string{"../../README.md", "../../docs/GPU.md"} {
		raw, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(raw), "\n") {
			if strings.Contains(line, "go build") && strings.Contains(line, "./tools/gexph") && !strings.Contains(line, "-buildvcs=auto") {
				t.Errorf("%s: %q builds gexph without -buildvcs=auto: its version says \"commit (not recorded)\" where GOFLAGS has -buildvcs=false", doc, line)
			}
		}
	}
}

// gexph version reports the plugin it finds (here the one GEXPH_PJRT_PLUGIN names, in a
// pip install's layout), its package and version, the CUDA folders beside it and what
// the environment lacks; without one, what to install.
func TestVersionReportsTheCUDAPluginItFinds(t *testing.T) {
	site, plugin := pipSite(t, t.TempDir())
	t.Setenv(cudafind.PluginEnv, plugin)
	t.Setenv("XLA_FLAGS", "")
	code, out, errOut := runCLI(t, "version", "-json")
	var v versionInfo
	if err := json.Unmarshal([]byte(out), &v); code != 0 || err != nil || v.CUDA == nil || v.CUDA.Install == nil {
		t.Fatalf("version -json: exit %d, %v, %s%s", code, err, out, errOut)
	}
	nv := filepath.Join(site, "nvidia", "cu13")
	if c := v.CUDA; c.Plugin != plugin || c.Package != "jax-cuda13-pjrt" || c.Version != "0.11.2" || !slices.Equal(c.LibDirs, []string{filepath.Join(nv, "lib")}) ||
		c.DataDir != nv || !slices.Contains(c.Env, "XLA_FLAGS=--xla_gpu_cuda_data_dir="+nv) {
		t.Errorf("version -json's cuda: %+v", c)
	}
	_, out, _ = runCLI(t, "version")
	for _, want := range []string{"\ncuda plugin  " + plugin + " (jax-cuda13-pjrt 0.11.2; found by " + cudafind.PluginEnv + ")\n",
		"\ncuda libs    " + filepath.Join(nv, "lib") + "\n", "\ncuda data    " + nv + " (libdevice); ptxas in " + filepath.Join(nv, "bin") + "\n",
		"\nxla          not in this build: make build-xla", "\ngpu          "} {
		if !strings.Contains(out, want) {
			t.Errorf("version lacks %q:\n%s", want, out)
		}
	}

	empty := t.TempDir()
	r := cudaReportOf(cudafind.Finder{Getenv: func(string) string { return "" }, Root: empty}, os.Getenv)
	var text strings.Builder
	writeCUDA(&text, r, true)
	if want := "cuda plugin  no CUDA plugin found: pip install jax-cuda13-pjrt"; !strings.Contains(text.String(), want) || r.Install != nil {
		t.Errorf("no plugin: %q, want a line %q", text.String(), want)
	}
}
