package expander

import (
	"runtime"
	"runtime/metrics"
	"sync/atomic"
	"testing"
	"time"
)

// EstimateBytes bounds the peak of Generate's heap (live objects and not yet collected
// garbage, sampled every millisecond), certified or not, above the heap before the call.
func TestEstimateBytesBoundsTheHeapPeakOfGenerate(t *testing.T) {
	heap := func() int64 {
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		metrics.Read(s)
		return int64(s[0].Value.Uint64())
	}
	for _, certify := range []bool{true, false} {
		opts := DefaultOptions(200_000, 6, 3)
		opts.Certify = certify
		runtime.GC()
		base := heap()
		var peak atomic.Int64
		done := make(chan struct{})
		go func() {
			for {
				select {
				case <-done:
					return
				case <-time.After(time.Millisecond):
					if h := heap(); h > peak.Load() {
						peak.Store(h)
					}
				}
			}
		}()
		_, err := Generate(opts)
		close(done)
		if err != nil {
			t.Fatal(err)
		}
		used, est := peak.Load()-base, EstimateBytes(opts)
		t.Logf("certify=%v: heap peak %d bytes above the start, estimate %d", certify, used, est)
		if used > est {
			t.Errorf("certify=%v: Generate's heap peaked %d bytes above its start, more than the estimate %d", certify, used, est)
		}
	}
}
