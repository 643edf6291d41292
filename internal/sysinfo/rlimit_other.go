//go:build !unix

package sysinfo

// addressSpaceLimit is not known on this platform: 0 (no limit).
func addressSpaceLimit() int64 { return 0 }
