//go:build !amd64 || !goexperiment.simd

package sysinfo

// SIMDKernels names the vector instructions that the go backend's SIMD kernels use on
// this CPU: "" in this build (another architecture, or amd64 without GOEXPERIMENT=simd:
// the backend's portable loops).
func SIMDKernels() string { return "" }
