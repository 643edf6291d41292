// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

package gobackend

import (
	"fmt"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/internal/gobackend"
)

// Fusions counts, in a program this backend compiled, the nodes that gexph's graph
// transformations fused from several ops, by fused kernel (see PATCHES.md at the module
// root); a program of another backend is an error.
func Fusions(e compute.Executable) (map[string]int, error) {
	ge, ok := e.(*gobackend.Executable)
	if !ok {
		return nil, fmt.Errorf("gobackend.Fusions: %T is not a program of the go backend", e)
	}
	return ge.Fusions(), nil
}

// SparseProducts returns how many matrix products this backend has run, since it was
// created, on a sparse left operand (a bag-of-words feature matrix and its transpose)
// instead of the GEMM (see PATCHES.md at the module root); a backend of another kind is
// an error.
func SparseProducts(b compute.Backend) (int64, error) {
	gb, ok := b.(*gobackend.Backend)
	if !ok {
		return 0, fmt.Errorf("gobackend.SparseProducts: %T is not the go backend", b)
	}
	return gb.SparseProducts.Load(), nil
}
