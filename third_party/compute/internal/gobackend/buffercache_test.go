// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

package gobackend

import (
	"testing"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
)

// borrow gets a buffer of size bytes from c, allocating it on a miss, as GetBuffer does.
func borrow(c *bufferCache, size int) *Buffer {
	if b := c.get(size); b != nil {
		return b
	}
	return &Buffer{RawBytes: make([]byte, size)}
}

func withBudget(t *testing.T, bytes int64) {
	saved := BufferCacheMaxBytes
	t.Cleanup(func() { BufferCacheMaxBytes = saved })
	BufferCacheMaxBytes = bytes
}

func TestBufferCacheReusesReleasedBuffers(t *testing.T) {
	withBudget(t, 1000)
	var c bufferCache
	a, b := borrow(&c, 40), borrow(&c, 40)
	c.put(a)
	c.put(b)
	if got := c.get(40); got != b {
		t.Errorf("get(40) = %p, want the last released buffer %p", got, b)
	}
	if got := c.get(8); got != nil {
		t.Errorf("get(8) = %p from a cache without a size in [8, 12]", got)
	}
	c.clear()
	if c.get(40) != nil || c.bytes != 0 {
		t.Error("clear left buffers")
	}
}

func TestBufferCacheDropsSizesNobodyAsksFor(t *testing.T) {
	withBudget(t, 1<<30)
	var c bufferCache
	old := borrow(&c, 100)
	c.put(old)
	for range staleGets + staleScanGets + 1 { // Many requests for another size.
		c.put(borrow(&c, 300))
	}
	if c.get(100) != nil || c.get(90) != nil {
		t.Error("a size nobody asked for in staleGets + staleScanGets requests is still cached")
	}
	if got := c.get(300); got == nil {
		t.Error("the size in use was dropped")
	}
}

func TestBufferCacheCountsBuffersInUseAgainstItsBudget(t *testing.T) {
	withBudget(t, 100)
	var c bufferCache
	a, b := borrow(&c, 60), borrow(&c, 50) // 110 in use, over the budget.
	c.put(b)                               // 60 still in use + 50 cached > 100: dropped.
	if c.bytes != 0 {
		t.Errorf("%d bytes cached beyond the budget", c.bytes)
	}
	c.put(a) // Nothing in use: cached.
	if c.bytes != 60 || c.inUse != 0 {
		t.Errorf("cached %d, in use %d; want 60 and 0", c.bytes, c.inUse)
	}
	big := borrow(&c, 101)
	c.put(big) // Larger than the budget: not kept.
	if c.bytes != 60 {
		t.Errorf("a buffer over the budget was kept: %d bytes", c.bytes)
	}
}

func TestBufferCacheLendsSlightlyLargerBuffers(t *testing.T) {
	withBudget(t, 1000)
	var c bufferCache
	big := borrow(&c, 140)
	c.put(big)
	if got := c.get(200); got != nil {
		t.Error("get(200) returned a smaller buffer")
	}
	if got := c.get(90); got != nil {
		t.Error("get(90) returned a buffer more than 1.5 times larger")
	}
	if got := c.get(100); got != big {
		t.Errorf("get(100) = %p, want the 140-byte buffer", got)
	}
}

func TestBufferBucketLenWastesLittleOnLargeBuffers(t *testing.T) {
	for _, n := range []int{1 << 20, 3<<20 + 1, 281 << 20, 1<<30 + 12345} {
		b := bufferBucketLen(n)
		if b < n || float64(b) > 1.125*float64(n) {
			t.Errorf("bufferBucketLen(%d) = %d, want in [n, 1.125·n]", n, b)
		}
		if bufferBucketLen(b) != b {
			t.Errorf("bufferBucketLen(%d) = %d is not a fixed point", n, b)
		}
	}
	if got := bufferBucketLen(1000); got != 1024 {
		t.Errorf("small sizes keep the two-bit buckets: bufferBucketLen(1000) = %d", got)
	}
}

// TestFinalizedBuffersLeaveTheCacheBudget checks that a buffer its holder finalizes
// (as GoMLX's tensors do) stops counting as in use: before, each one shrank the cache's
// budget for good, and after a few thousand training steps every request missed.
func TestFinalizedBuffersLeaveTheCacheBudget(t *testing.T) {
	withBudget(t, 1<<20)
	b, err := NewBackend()
	if err != nil {
		t.Fatal(err)
	}
	defer b.Finalize()
	shape := shapes.Make(dtypes.Float32, 1024) // 4 KiB.
	for range 1000 {                           // 4 MB finalized, four times the budget.
		buf, err := b.GetBuffer(shape)
		if err != nil {
			t.Fatal(err)
		}
		if err := buf.Finalize(); err != nil {
			t.Fatal(err)
		}
		fed, err := b.BufferFromFlatData(0, make([]float32, 1024), shape)
		if err != nil {
			t.Fatal(err)
		}
		b.PutBuffer(fed.(*Buffer))
	}
	if b.buffers.inUse != 0 {
		t.Errorf("%d bytes counted in use after every buffer was finalized, want 0", b.buffers.inUse)
	}
	kept, _ := b.GetBuffer(shape)
	b.PutBuffer(kept)
	if again, _ := b.GetBuffer(shape); again != kept {
		t.Error("the cache stopped reusing released buffers after its users finalized more than its budget")
	}
}

// TestShallowCloneTakesOverTheCount checks that an output handed to the user as a
// shallow clone is counted once: finalizing the clone, then the original handle (a
// donated input), leaves only the other buffer in use.
func TestShallowCloneTakesOverTheCount(t *testing.T) {
	b, err := NewBackend()
	if err != nil {
		t.Fatal(err)
	}
	defer b.Finalize()
	other, _ := b.GetBuffer(shapes.Make(dtypes.Float32, 256))
	orig, _ := b.GetBuffer(shapes.Make(dtypes.Float32, 1024))
	clone := orig.shallowClone()
	if err := clone.Finalize(); err != nil {
		t.Fatal(err)
	}
	_ = orig.Finalize()
	if want := int64(len(other.RawBytes)); b.buffers.inUse != want {
		t.Errorf("%d bytes counted in use, want %d (the other buffer's)", b.buffers.inUse, want)
	}
}
