//go:build goexperiment.simd

package sysinfo

import "simd/archsimd"

// SIMDKernels names the vector instructions that the go backend's SIMD kernels use on
// this CPU: "AVX-512" (16 float32 lanes), "AVX2" (8 lanes; also where GODEBUG turns
// AVX-512 off), or "" where there are none (a build without GOEXPERIMENT=simd, another
// architecture, or an x86 CPU without AVX2). Speeds of the same code differ by it, so
// every record of a timing names it beside the CPU model.
func SIMDKernels() string {
	switch {
	case archsimd.X86.AVX512():
		return "AVX-512"
	case archsimd.X86.AVX2():
		return "AVX2"
	}
	return ""
}
