// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

//go:build goexperiment.simd

package gobackend

import (
	"simd"

	"github.com/gomlx/compute/internal/gobackend"
)

// Float32Lanes is the number of float32 values in one SIMD vector of the backend's
// kernels on this machine (16 with AVX-512, 8 with AVX2, 4 on arm64): some fusions take
// only shapes that fit it (Fusions counts differ between machines of other widths).
func Float32Lanes() int { return simd.BroadcastFloat32s(0).Len() }

// TallDenseFuses tells whether the tall dense kernel takes a product of cols output
// columns on this machine (the GEMM takes the others): with AVX-512, every width up to
// 128 but 16; with AVX2, 17 to 48 but 32; elsewhere, widths off whole vectors up to 48.
// Counts of fused tall dense products differ between machines where it differs.
func TallDenseFuses(cols int) bool { return gobackend.TallDenseFuses(cols, Float32Lanes()) }
