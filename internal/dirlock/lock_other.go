//go:build !unix

package dirlock

import "os"

// lockFile does nothing where flock is not available: runs are not protected from
// sharing a directory there.
func lockFile(f *os.File) error { return nil }
