package gexph

import (
	"os"
	"testing"

	"github.com/gexph/gexph/internal/sysinfo"
)

// TestMain reserves the heap headroom the pure-Go backend's SIMD kernels need (see
// gexph.SetupRuntime) while the test binary's heap is still fresh. With killChildEnv
// set, the binary is the training run that the kill test interrupts; with
// runtimeChildEnv, the program of TestTrainPreparesTheRuntimeItself.
func TestMain(m *testing.M) {
	sysinfo.ReserveHeapHeadroom()
	if os.Getenv(runtimeChildEnv) != "" {
		os.Exit(runRuntimeChild())
	}
	if dir := os.Getenv(killChildEnv); dir != "" {
		os.Exit(runKilledRunChild(dir))
	}
	os.Exit(m.Run())
}
