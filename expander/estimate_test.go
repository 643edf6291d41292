package expander

import (
	"math"
	"runtime"
	"runtime/metrics"
	"strings"
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

// The estimate covers the complete-graph fallback (N(N−1)/2 edges), and sizes beyond
// int64 saturate instead of wrapping to a small or negative number that a memory check
// would let through.
func TestEstimateBytesCoversTheCompleteFallbackAndSaturates(t *testing.T) {
	opts := DefaultOptions(60_000, 70_000, 1)
	opts.AllowCompleteFallback = true
	if got, want := EstimateBytes(opts), int64(8*60_000*59_999/2); got < want {
		t.Errorf("K_60000 fallback: estimate %d bytes, want ≥ %d (its edges)", got, want)
	}
	huge := DefaultOptions(math.MaxInt, math.MaxInt, 1)
	if got := EstimateBytes(huge); got != math.MaxInt64 {
		t.Errorf("n = d = MaxInt: estimate %d, want MaxInt64", got)
	}
}

// A degree so large that n·(d/2) wraps around int is refused, not taken for a small
// graph whose complete-graph fallback would then allocate N² edges.
func TestGenerateRefusesADegreeWhoseEdgeCountOverflows(t *testing.T) {
	opts := DefaultOptions(1<<20, 1<<62, 1)
	opts.AllowCompleteFallback = true
	if _, err := Generate(opts); err == nil || !strings.Contains(err.Error(), "exceeds the int32 index range") {
		t.Errorf("n = 2²⁰, d = 2⁶²: %v, want the int32 range refusal", err)
	}
}
