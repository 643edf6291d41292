package cudafind

import (
	"reflect"
	"testing"
)

func TestEnvAddsOnlyWhatIsMissing(t *testing.T) {
	in := &Install{LibDirs: []string{"/s/nvidia/cu13/lib", "/s/nvidia/nccl/lib"}, DataDir: "/s/nvidia/cu13", PtxasDir: "/s/nvidia/cu13/bin"}
	got := in.Env(env(map[string]string{"PATH": "/usr/bin:/bin", "XLA_FLAGS": "--xla_dump_to=/tmp/d"}))
	want := []string{
		"LD_LIBRARY_PATH=/s/nvidia/cu13/lib:/s/nvidia/nccl/lib",
		"PATH=/s/nvidia/cu13/bin:/usr/bin:/bin",
		"XLA_FLAGS=--xla_dump_to=/tmp/d --xla_gpu_cuda_data_dir=/s/nvidia/cu13",
		"GOPJRT_CUDA_CHECKS=0",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Env of a bare environment:\n got %q\nwant %q", got, want)
	}
	ready := env(map[string]string{
		"LD_LIBRARY_PATH": "/s/nvidia/nccl/lib:/s/nvidia/cu13/lib:/opt/lib", "PATH": "/usr/bin:/s/nvidia/cu13/bin",
		"XLA_FLAGS": "--xla_gpu_cuda_data_dir=/elsewhere", "GOPJRT_CUDA_CHECKS": "1",
	})
	if got := in.Env(ready); len(got) != 0 {
		t.Errorf("Env of an environment that has it all: %q, want nothing (the user's own settings kept)", got)
	}
	partial := env(map[string]string{"LD_LIBRARY_PATH": "/opt/lib:/s/nvidia/nccl/lib", "GOPJRT_CUDA_CHECKS": "0"})
	if got := (&Install{LibDirs: in.LibDirs}).Env(partial); !reflect.DeepEqual(got, []string{"LD_LIBRARY_PATH=/s/nvidia/cu13/lib:/opt/lib:/s/nvidia/nccl/lib"}) {
		t.Errorf("Env with one folder missing: %q, want it put first", got)
	}
}

// The process starts again only to give the dynamic loader LD_LIBRARY_PATH, which it
// reads at start, and only once: the marker stops a second start.
func TestReexecOnlyForTheLoaderAndOnlyOnce(t *testing.T) {
	environ := []string{"HOME=/h", "LD_LIBRARY_PATH=/opt/lib", "PATH=/usr/bin"}
	changes := []string{"LD_LIBRARY_PATH=/s/lib:/opt/lib", "GOPJRT_CUDA_CHECKS=0"}
	got, ok := Reexec(environ, changes)
	want := []string{"HOME=/h", "PATH=/usr/bin", "LD_LIBRARY_PATH=/s/lib:/opt/lib", "GOPJRT_CUDA_CHECKS=0", ReexecMarker + "=1"}
	if !ok || !reflect.DeepEqual(got, want) {
		t.Errorf("Reexec for a missing library folder: %v %q, want true %q", ok, got, want)
	}
	if _, ok := Reexec(got, changes); ok {
		t.Error("Reexec once started again: true, want false (it would loop)")
	}
	if _, ok := Reexec(environ, []string{"XLA_FLAGS=--xla_gpu_cuda_data_dir=/s", "PATH=/s/bin:/usr/bin"}); ok {
		t.Error("Reexec for variables read after start: true, want false (os.Setenv makes them)")
	}
	if _, ok := Reexec(environ, nil); ok {
		t.Error("Reexec without changes: true")
	}
}
