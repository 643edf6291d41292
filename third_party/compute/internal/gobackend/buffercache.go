// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

package gobackend

// A cache of released buffers (gexph patch, see PATCHES.md at the module root).
//
// The upstream backend kept released buffers in a sync.Pool per size, which the
// garbage collector empties at every cycle. A training step allocates and releases
// gigabytes of same-sized buffers; with the pools emptied, most steps allocated fresh
// memory, which the collector later returned to the operating system and the next step
// faulted in again (on the machines measured, first-touch faults ran at 0.3 GB/s, and
// an inference pass of Amazon Computers' model spent more time faulting than
// computing). bufferCache keeps released buffers across collections instead, up to a
// byte budget: the smaller of GOMEMLIMIT/2 (when a limit is set) and
// BufferCacheMaxBytes.

import (
	"math"
	"runtime/debug"
	"sync"
)

// BufferCacheMaxBytes bounds the bytes of released buffers a backend keeps for reuse.
var BufferCacheMaxBytes int64 = math.MaxInt64

// bufferCache holds released buffers by their (bucketed) byte size.
type bufferCache struct {
	mu    sync.Mutex
	free  map[int][]*Buffer
	bytes int64
}

// cacheLimit returns the cache's byte budget.
func cacheLimit() int64 {
	limit := BufferCacheMaxBytes
	if memLimit := debug.SetMemoryLimit(-1); memLimit < math.MaxInt64 {
		limit = min(limit, memLimit/2)
	}
	return limit
}

// get returns a released buffer of exactly size bytes, or nil.
func (c *bufferCache) get(size int) *Buffer {
	c.mu.Lock()
	defer c.mu.Unlock()
	list := c.free[size]
	if len(list) == 0 {
		return nil
	}
	buf := list[len(list)-1]
	list[len(list)-1] = nil
	c.free[size] = list[:len(list)-1]
	c.bytes -= int64(size)
	return buf
}

// put keeps buf for reuse, first dropping other cached buffers (other sizes before its
// own) when the budget would be exceeded; a buffer larger than the budget is dropped.
func (c *bufferCache) put(buf *Buffer) {
	size := int64(len(buf.RawBytes))
	limit := cacheLimit()
	if size > limit {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.free == nil {
		c.free = map[int][]*Buffer{}
	}
	for s, list := range c.free {
		if c.bytes+size <= limit {
			break
		}
		if int64(s) == size {
			continue
		}
		for _, b := range list {
			c.bytes -= int64(len(b.RawBytes))
		}
		delete(c.free, s)
	}
	if c.bytes+size > limit {
		return
	}
	c.free[int(size)] = append(c.free[int(size)], buf)
	c.bytes += size
}

// clear drops every cached buffer.
func (c *bufferCache) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.free = nil
	c.bytes = 0
}
