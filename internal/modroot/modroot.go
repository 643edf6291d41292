// Package modroot finds the root of the Go module a path lies in: the nearest folder at
// or above it that holds go.mod. The shared data sets lie beside that root
// (../shared/data), which both the data package and the tests look for.
package modroot

import (
	"os"
	"path/filepath"
)

// Find returns the nearest folder at or above from that holds a go.mod file, and false
// when there is none up to the file system's root.
func Find(from string) (string, bool) {
	for dir := from; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, true
		}
		if filepath.Dir(dir) == dir {
			return "", false
		}
	}
}

// SharedData is the folder of the shared data sets beside the module root above from:
// ROOT/../shared/data, and false without a module root.
func SharedData(from string) (string, bool) {
	root, ok := Find(from)
	if !ok {
		return "", false
	}
	return filepath.Join(filepath.Dir(root), "shared", "data"), true
}
