// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

package gobackend

import "testing"

func TestBufferCacheReusesReleasedBuffersWithinItsBudget(t *testing.T) {
	saved := BufferCacheMaxBytes
	defer func() { BufferCacheMaxBytes = saved }()
	BufferCacheMaxBytes = 100
	var c bufferCache
	a, b := &Buffer{RawBytes: make([]byte, 40)}, &Buffer{RawBytes: make([]byte, 40)}
	c.put(a)
	c.put(b)
	if got := c.get(40); got != b {
		t.Errorf("get(40) = %p, want the last released buffer %p", got, b)
	}
	if got := c.get(8); got != nil {
		t.Errorf("get(8) = %p from a cache without such a size", got)
	}
	// A buffer of another size that would exceed the budget evicts the other sizes.
	c.put(b)
	big := &Buffer{RawBytes: make([]byte, 60)}
	c.put(big)
	if c.bytes != 60 || c.get(40) != nil || c.get(60) != big {
		t.Errorf("after evicting: %d bytes cached", c.bytes)
	}
	// A buffer larger than the budget is not kept.
	c.put(&Buffer{RawBytes: make([]byte, 101)})
	if c.bytes != 0 {
		t.Errorf("a buffer over the budget was kept: %d bytes", c.bytes)
	}
	c.put(a)
	c.clear()
	if c.get(40) != nil || c.bytes != 0 {
		t.Error("clear left buffers")
	}
}
