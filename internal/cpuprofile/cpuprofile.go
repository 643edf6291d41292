// Package cpuprofile writes a CPU profile of a part of a process, for go tool pprof.
package cpuprofile

import (
	"fmt"
	"os"
	"runtime/pprof"
)

// Start begins a CPU profile written to path (created, or truncated) and returns the
// function that ends it and closes the file. Only one profile runs at a time in a
// process; a second Start before the first's stop is an error, as is a path that cannot
// be created, each naming the path.
func Start(path string) (stop func() error, err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("CPU profile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		os.Remove(path)
		return nil, fmt.Errorf("CPU profile %s: %w", path, err)
	}
	return func() error {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			return fmt.Errorf("CPU profile %s: %w", path, err)
		}
		return nil
	}, nil
}
