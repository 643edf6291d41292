// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

package gobackend

// Fusion is implemented by the Data of a node that one of gexph's graph transformations
// (PATCHES.md at the module root) made of several ops: the fused kernel's name.
type Fusion interface {
	FusionName() string
}

// Fusions counts the nodes of the executable's main function that run (live ones) and are fused
// kernels, by kernel name (Fusion): which of its ops the transformations fused. An
// executable compiled with the "no_fusion" option has none.
func (e *Executable) Fusions() map[string]int {
	out := map[string]int{}
	if e == nil || e.mainFn == nil {
		return out
	}
	fe := e.mainFn
	output := map[int]bool{}
	for _, n := range fe.OutputNodes {
		output[n.Index] = true
	}
	for _, idx := range fe.Schedule {
		if fe.NumUses[idx] == 0 && !output[idx] {
			continue // dead: the executor skips it
		}
		if f, ok := fe.Function.Nodes[idx].Data.(Fusion); ok {
			out[f.FusionName()]++
		}
	}
	return out
}
