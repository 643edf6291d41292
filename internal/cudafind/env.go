package cudafind

import (
	"path/filepath"
	"slices"
	"strings"
)

// ReexecMarker is set in the environment of a process started again with the
// environment that Env gives (see Reexec), so that it does not start again once more.
const ReexecMarker = "GEXPH_CUDA_REEXEC"

// Env returns the environment variables, as "KEY=VALUE", that a process whose
// environment getenv reads must change to use the plugin, and only those:
//
//   - LD_LIBRARY_PATH: the LibDirs not on it yet, put first;
//   - PATH: PtxasDir first, where it is not on it (XLA runs ptxas to compile kernels);
//   - XLA_FLAGS: --xla_gpu_cuda_data_dir=DataDir added, unless it names a data dir;
//   - GOPJRT_CUDA_CHECKS=0 where it is unset: go-xla's check of a system CUDA install,
//     which a pip install is not, is skipped.
func (in *Install) Env(getenv func(string) string) []string {
	var out []string
	if v, ok := prependDirs(getenv("LD_LIBRARY_PATH"), in.LibDirs); ok {
		out = append(out, "LD_LIBRARY_PATH="+v)
	}
	if in.PtxasDir != "" {
		if v, ok := prependDirs(getenv("PATH"), []string{in.PtxasDir}); ok {
			out = append(out, "PATH="+v)
		}
	}
	if flags := getenv("XLA_FLAGS"); in.DataDir != "" && !strings.Contains(flags, "xla_gpu_cuda_data_dir") {
		out = append(out, "XLA_FLAGS="+strings.TrimSpace(flags+" --xla_gpu_cuda_data_dir="+in.DataDir))
	}
	if getenv("GOPJRT_CUDA_CHECKS") == "" {
		out = append(out, "GOPJRT_CUDA_CHECKS=0")
	}
	return out
}

// prependDirs returns the list of folders list (separated by ':') with those of dirs
// that it lacks put first, and whether any was.
func prependDirs(list string, dirs []string) (string, bool) {
	have := filepath.SplitList(list)
	var missing []string
	for _, d := range dirs {
		if !slices.Contains(have, d) {
			missing = append(missing, d)
		}
	}
	if len(missing) == 0 {
		return list, false
	}
	if list != "" {
		missing = append(missing, list)
	}
	return strings.Join(missing, string(filepath.ListSeparator)), true
}

// Reexec decides whether a process with the environment environ ("KEY=VALUE", as
// os.Environ gives it) must start again to make the changes (from Env), and returns
// the environment to start it with: environ with the changes made and ReexecMarker set.
// It must where the changes touch LD_LIBRARY_PATH, which the dynamic loader reads once,
// when the process starts (a later os.Setenv does not reach dlopen), unless the process
// was already started so (ReexecMarker set): then the libraries are not where it looked,
// and starting again would loop. Other changes are read when the plugin is loaded, and
// os.Setenv makes them.
func Reexec(environ, changes []string) ([]string, bool) {
	touchesLoader := slices.ContainsFunc(changes, func(kv string) bool { return strings.HasPrefix(kv, "LD_LIBRARY_PATH=") })
	if !touchesLoader || slices.ContainsFunc(environ, func(kv string) bool { return strings.HasPrefix(kv, ReexecMarker+"=") }) {
		return nil, false
	}
	env := make([]string, 0, len(environ)+len(changes)+1)
	for _, kv := range environ {
		key, _, _ := strings.Cut(kv, "=")
		if !slices.ContainsFunc(changes, func(c string) bool { return strings.HasPrefix(c, key+"=") }) {
			env = append(env, kv)
		}
	}
	env = append(env, changes...)
	return append(env, ReexecMarker+"=1"), true
}
