//go:build !unix

package sysinfo

import "time"

// processCPUTime is not measured on this platform; it returns 0.
func processCPUTime() time.Duration { return 0 }
