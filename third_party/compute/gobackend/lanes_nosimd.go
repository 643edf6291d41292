// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

//go:build !goexperiment.simd

package gobackend

// Float32Lanes is 1 in a build without GOEXPERIMENT=simd: the kernels run plain loops.
func Float32Lanes() int { return 1 }

// TallDenseFuses is false in a build without GOEXPERIMENT=simd: nothing is fused.
func TallDenseFuses(int) bool { return false }
