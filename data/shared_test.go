package data

import (
	"os"
	"path/filepath"
	"testing"
)

// sharedData returns the path of a file or directory under the shared data root
// (GEXPH_DATA, else ../shared/data beside the repository), skipping the test when it
// is absent, or failing it when CI is set.
func sharedData(t testing.TB, rel string) string {
	t.Helper()
	root := os.Getenv("GEXPH_DATA")
	if root == "" {
		root = filepath.Join("..", "..", "shared", "data")
	}
	path := filepath.Join(root, rel)
	if _, err := os.Stat(path); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("data missing in CI: %v", err)
		}
		t.Skipf("data not present: %v", err)
	}
	return path
}
