package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"syscall"

	"github.com/gexph/gexph/internal/cudafind"
)

// useBackend makes the -backend flag of fs, once parsed, the spec of the backend it
// stands for on this machine (cudafind.Finder.Resolve, given whether this gexph has
// XLA): "cuda", "xla:cuda" and "auto" become the CUDA plugin's path, or "go" for an
// auto without a GPU, which a note on fs's output explains. For a CUDA plugin it gives
// the process the environment the plugin needs (cudaEnvironment), starting it again
// through exec where the dynamic loader must see it. A flag set without -backend is
// left alone.
func useBackend(fs *flag.FlagSet, finder cudafind.Finder, xla bool, exec func(env []string) error) error {
	fl := fs.Lookup("backend")
	if fl == nil {
		return nil
	}
	c, err := finder.Resolve(fl.Value.String(), xla)
	if err != nil {
		return err
	}
	if c.Note != "" {
		fmt.Fprintf(fs.Output(), "gexph: -backend %s\n", c.Note)
	}
	if c.Install != nil {
		if err := cudaEnvironment(c.Install, exec); err != nil {
			return err
		}
	}
	return fs.Set("backend", c.Spec)
}

// cudaEnvironment makes the changes to this process's environment that the plugin in
// needs (cudafind.Install.Env): through exec, with the new environment, where the
// dynamic loader must see them (cudafind.Reexec); else by os.Setenv, which reaches the
// plugin (it reads XLA_FLAGS, PATH and GOPJRT_CUDA_CHECKS when it is loaded) and the
// processes this one starts.
func cudaEnvironment(in *cudafind.Install, exec func(env []string) error) error {
	changes := in.Env(os.Getenv)
	if env, again := cudafind.Reexec(os.Environ(), changes); again {
		return exec(env)
	}
	for _, kv := range changes {
		key, value, _ := strings.Cut(kv, "=")
		if err := os.Setenv(key, value); err != nil {
			return fmt.Errorf("setting %s for the CUDA plugin: %w", key, err)
		}
	}
	return nil
}

// reexec replaces this process by gexph started again with the same arguments and the
// environment env; it returns only on failure. Why: the dynamic loader reads
// LD_LIBRARY_PATH once, when a process starts, and the CUDA libraries that the plugin
// loads (libcudart, libcublas, … of the nvidia-* pip packages, beside the plugin) are
// found only there; an os.Setenv now would not reach dlopen. The process keeps its id,
// terminal and parent, so a shell, a pipe or a supervisor sees one gexph.
func reexec(env []string) error {
	err := syscall.Exec("/proc/self/exe", os.Args, env)
	return fmt.Errorf("starting gexph again with the CUDA libraries on LD_LIBRARY_PATH: %w", err)
}
