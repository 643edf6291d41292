//go:build xla

package gexph

// With the "xla" build tag the XLA (PJRT) backend is linked in: NewBackend then accepts
// "xla:cpu" and "xla:/abs/path/to/pjrt_plugin.so". The plugin is loaded from the given
// path (or the standard install locations for "cpu"); nothing is downloaded.
import _ "github.com/gomlx/go-xla/compute/xla"
