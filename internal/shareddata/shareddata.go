// Package shareddata finds the shared data sets for tests: $GEXPH_DATA, else shared/data
// beside the module's root folder (../shared/data from the repository).
package shareddata

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gexph/gexph/internal/modroot"
)

// Root returns the shared data root: $GEXPH_DATA when set, else ../shared/data relative
// to the nearest folder above the working directory that holds go.mod.
func Root() string {
	if dir := os.Getenv("GEXPH_DATA"); dir != "" {
		return dir
	}
	wd, err := os.Getwd()
	if err != nil {
		return filepath.Join("..", "shared", "data")
	}
	if dir, ok := modroot.SharedData(wd); ok {
		return dir
	}
	return filepath.Join(wd, "..", "shared", "data")
}

// Path returns the absolute path of rel under Root, skipping the test when it is absent,
// or failing it when $CI is set (CI has the shared data beside the repository).
func Path(t testing.TB, rel string) string {
	t.Helper()
	path, err := filepath.Abs(filepath.Join(Root(), rel))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("shared data missing in CI: %v", err)
		}
		t.Skipf("shared data not present: %v", err)
	}
	return path
}
