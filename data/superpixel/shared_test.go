package superpixel

import (
	"testing"

	"github.com/gexph/gexph/internal/shareddata"
)

// sharedData returns the path of a file or directory under the shared data root,
// skipping the test when it is absent (see shareddata.Path).
func sharedData(t testing.TB, rel string) string {
	t.Helper()
	return shareddata.Path(t, rel)
}
