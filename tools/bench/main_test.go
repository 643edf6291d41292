package bench

import (
	"os"
	"testing"

	"github.com/gexph/gexph/internal/sysinfo"
)

// TestMain reserves the heap headroom the pure-Go backend's SIMD kernels need (see
// gexph.SetupRuntime) while the test binary's heap is still fresh.
func TestMain(m *testing.M) {
	sysinfo.ReserveHeapHeadroom()
	os.Exit(m.Run())
}
