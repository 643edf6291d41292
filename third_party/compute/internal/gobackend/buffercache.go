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
// computing). bufferCache keeps released buffers across collections instead:
//
//   - a request takes a cached buffer of its size, else the smallest cached one of at
//     most 1.5 times its size (batches of graphs vary in size from step to step);
//   - buffers in use and cached together stay within a budget, 90 % of GOMEMLIMIT when a
//     limit is set and at most BufferCacheMaxBytes;
//   - sizes nobody asked for in the last staleGets requests are dropped (looked for
//     every staleScanGets requests, and whenever the budget is short), and once a
//     quarter of the largest use so far has been dropped, a collection reclaims them.

import (
	"math"
	"runtime"
	"runtime/debug"
	"sync"
)

// BufferCacheMaxBytes bounds the bytes of buffers a backend keeps in use and cached.
var BufferCacheMaxBytes int64 = math.MaxInt64

// staleGets is the number of requests after which a cached size nobody asked for is
// dropped: a few training steps' worth.
const staleGets = 20000

// staleScanGets is the number of requests between two looks for stale sizes: each look
// visits every cached size, and a training step releases thousands of buffers.
const staleScanGets = 1024

// bufferCache holds released buffers by their (bucketed) byte size.
type bufferCache struct {
	mu    sync.Mutex
	free  map[int][]*Buffer
	bytes int64
	// inUse counts the bytes of the buffers handed out and not yet released; peakInUse
	// is its largest value so far.
	inUse, peakInUse int64
	// gets counts the requests; lastGet the request that last asked for each size;
	// scanned the request count at the last look for stale sizes.
	gets, scanned int64
	lastGet       map[int]int64
	// evicted counts the bytes dropped since the last collection this cache asked for.
	evicted int64
}

// cacheLimit returns the budget of buffers in use and cached.
func cacheLimit() int64 {
	limit := BufferCacheMaxBytes
	if memLimit := debug.SetMemoryLimit(-1); memLimit < math.MaxInt64 {
		limit = min(limit, memLimit/10*9)
	}
	return limit
}

// get returns a released buffer for size bytes, or nil (see bufferCache); either way it
// counts the bytes as in use (size on a miss, which the caller allocates).
func (c *bufferCache) get(size int) *Buffer {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gets++
	if c.lastGet == nil {
		c.lastGet = map[int]int64{}
	}
	c.lastGet[size] = c.gets
	best := size
	if len(c.free[size]) == 0 {
		best = 0
		for s, list := range c.free {
			if len(list) > 0 && s > size && s <= size+size/2 && (best == 0 || s < best) {
				best = s
			}
		}
	}
	if best == 0 {
		c.inUse += int64(size)
		c.peakInUse = max(c.peakInUse, c.inUse)
		return nil
	}
	c.lastGet[best] = c.gets
	list := c.free[best]
	buf := list[len(list)-1]
	list[len(list)-1] = nil
	c.free[best] = list[:len(list)-1]
	c.bytes -= int64(best)
	c.inUse += int64(best)
	c.peakInUse = max(c.peakInUse, c.inUse)
	return buf
}

// put releases buf and keeps it for reuse (see bufferCache for what it drops).
func (c *bufferCache) put(buf *Buffer) {
	size := int64(len(buf.RawBytes))
	c.mu.Lock()
	defer c.mu.Unlock()
	c.inUse = max(0, c.inUse-size)
	limit := cacheLimit() - c.inUse
	if size > limit {
		return
	}
	if c.free == nil {
		c.free = map[int][]*Buffer{}
	}
	if c.bytes+size > limit || c.gets-c.scanned >= staleScanGets {
		c.scanned = c.gets
		for s := range c.free {
			if c.bytes+size <= limit && c.gets-c.lastGet[s] <= staleGets {
				continue
			}
			if int64(s) == size {
				continue
			}
			c.drop(s)
		}
	}
	if c.bytes+size > limit {
		return
	}
	c.free[int(size)] = append(c.free[int(size)], buf)
	c.bytes += size
	// Dropped buffers are garbage until the next collection, which the collector's
	// target (GOGC=400 on a heap of mostly live buffers) puts far away: new buffers would
	// pile up meanwhile.
	if c.evicted > c.peakInUse/4 {
		c.evicted = 0
		go runtime.GC()
	}
}

// forget stops counting size bytes as in use: a buffer from get that its holder lets go
// of without releasing it to the cache (Buffer.Finalize leaves its bytes to the garbage
// collector). Without it, every finalized buffer would shrink the cache's budget for the
// rest of the process.
func (c *bufferCache) forget(size int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.inUse = max(0, c.inUse-int64(size))
}

// drop forgets the cached buffers of one size.
func (c *bufferCache) drop(size int) {
	for _, b := range c.free[size] {
		c.bytes -= int64(len(b.RawBytes))
		c.evicted += int64(len(b.RawBytes))
	}
	delete(c.free, size)
}

// clear drops every cached buffer.
func (c *bufferCache) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.free, c.lastGet = nil, nil
	c.bytes = 0
}
