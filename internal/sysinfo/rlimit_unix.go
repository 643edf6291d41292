//go:build unix

package sysinfo

import (
	"math"
	"syscall"
)

// addressSpaceLimit returns the soft RLIMIT_AS of the process in bytes, or 0 when it is
// unlimited or unknown.
func addressSpaceLimit() int64 {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &lim); err != nil {
		return 0
	}
	if lim.Cur > math.MaxInt64 { // RLIM_INFINITY is all ones
		return 0
	}
	return int64(lim.Cur)
}
