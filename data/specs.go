package data

import (
	"cmp"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
)

// SpecKind is one kind of data spec "KIND:ARG" that names data by path or by a
// parameter rather than by a registered name: the one table that Load, AbsoluteSpec,
// the transforms' checks, Generated and the command's choice of a default preset read.
type SpecKind struct {
	// Prefix is the kind's name before the colon; Arg names its argument ("PATH", "DIR",
	// "N").
	Prefix, Arg string
	// Path tells that the argument is a file or a folder (AbsoluteSpec makes it absolute).
	Path bool
	// Generated tells that the data is drawn from the seed (another seed draws fresh
	// graphs of the same distribution), not read from files.
	Generated bool
	// Transforms tells that LoadOptions' BinaryFeatures and LargestComponent apply;
	// GNNBenchmark that the file is a gnn-benchmark npz (NormalizeFeatures applies too).
	Transforms, GNNBenchmark bool
	// load reads or generates the data of the argument.
	load Loader
	// task returns the data's task without loading it all, and whether it is one graph.
	task func(arg string) (task Task, transductive bool, err error)
}

// specKinds lists the kinds of spec; adding one is adding a row.
func specKinds() []SpecKind {
	oneGraph := func(string) (Task, bool, error) { return NodeClassification, true, nil }
	return []SpecKind{
		{Prefix: "npz", Arg: "PATH", Path: true, Transforms: true, GNNBenchmark: true, load: LoadNPZ, task: oneGraph},
		{Prefix: "ogb", Arg: "DIR", Path: true, load: cachedLoader("ogb", LoadOGBNode), task: oneGraph},
		{Prefix: "edgelist", Arg: "DIR", Path: true, Transforms: true, load: LoadEdgeListDir, task: oneGraph},
		{Prefix: "export", Arg: "DIR", Path: true, load: LoadExport,
			task: func(dir string) (Task, bool, error) {
				src, err := openExportDir(dir)
				if err != nil {
					return 0, false, err
				}
				t, err := ParseTask(src.meta.Task)
				return t, src.meta.Transductive, err
			}},
		{Prefix: "planted", Arg: "N", Generated: true, load: loadPlanted, task: oneGraph},
	}
}

// cachedLoader returns load run through the cache, keyed by name, the files under the
// path and the options (see loadCached).
func cachedLoader(name string, load Loader) Loader {
	return func(path string, opts LoadOptions) (*Dataset, error) {
		return loadCached(name, path, true, opts, func() (*Dataset, error) { return load(path, opts) })
	}
}

// SpecKinds lists the kinds of data spec "KIND:ARG" Load reads.
func SpecKinds() []SpecKind { return specKinds() }

// KindOf returns the kind of a spec "KIND:ARG" and its argument; ok is false for a
// registered name (no colon) or an unknown kind.
func KindOf(spec string) (k SpecKind, arg string, ok bool) {
	prefix, arg, found := strings.Cut(spec, ":")
	if !found {
		return SpecKind{}, "", false
	}
	for _, k := range specKinds() {
		if k.Prefix == prefix {
			return k, arg, true
		}
	}
	return SpecKind{}, arg, false
}

// Task returns the task of the data of argument arg without loading it all, and whether
// it is one graph whose nodes are split (an export says which in its files).
func (k SpecKind) Task(arg string) (Task, bool, error) { return k.task(arg) }

// SpecKindsText lists the kinds as a message gives them: "npz:PATH, ogb:DIR, … or
// planted:N".
func SpecKindsText() string {
	var parts []string
	for _, k := range specKinds() {
		parts = append(parts, k.Prefix+":"+k.Arg)
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " or " + parts[len(parts)-1]
}

// loadPlanted generates planted:N, refusing a graph larger than opts.MaxBytes allows.
func loadPlanted(arg string, opts LoadOptions) (*Dataset, error) {
	n, err := strconv.Atoi(arg)
	if err != nil {
		return nil, fmt.Errorf("data set %q: want planted:N with a node count N, got %q", "planted:"+arg, arg)
	}
	o := DefaultPlantedPartitionOptions(n, opts.Seed)
	if need, limit := PlantedPartitionBytes(o), cmp.Or(opts.MaxBytes, DefaultMaxBytes); need > limit {
		return nil, fmt.Errorf("data set %q: a planted-partition graph of %d nodes takes about %d bytes, more than the %d a data set may (%w)", "planted:"+arg, n, need, limit, ErrTooLarge)
	}
	return GeneratePlantedPartition(o)
}

// absolutePath makes a spec kind's path argument absolute.
func absolutePath(k SpecKind, arg string) string {
	if abs, err := filepath.Abs(arg); err == nil && k.Path {
		return k.Prefix + ":" + abs
	}
	return k.Prefix + ":" + arg
}
