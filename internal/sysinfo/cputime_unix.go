//go:build unix

package sysinfo

import (
	"syscall"
	"time"
)

// processCPUTime returns the user plus system CPU time consumed so far by this process
// (0 if unavailable).
func processCPUTime() time.Duration {
	var usage syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &usage); err != nil {
		return 0
	}
	return time.Duration(usage.Utime.Nano() + usage.Stime.Nano())
}
