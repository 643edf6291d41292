package data

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/gexph/gexph/data/npy"
	"github.com/gexph/gexph/internal/regfile"
)

// maxSplitFileBytes bounds a JSON split file: 10⁸ nodes' indices in decimal.
const maxSplitFileBytes = 1 << 30

// ReadSplitFile reads a fixed split from path: the indices of the train, val and test
// nodes of a transductive data set (or graphs of an inductive one), as published beside
// benchmark results. Two forms are read:
//   - an .npz archive of integer arrays train, valid (or val) and test, the form
//     np.savez(path, train=…, valid=…, test=…) writes (Luo et al.'s
//     medium_graph/data/NAME_split.npz);
//   - a JSON object {"train": […], "val": […], "test": […]} ("valid" for "val" too).
//
// It checks the form only; Load checks the indices against the data set.
func ReadSplitFile(path string) (Split, error) {
	if strings.EqualFold(filepath.Ext(path), ".npz") {
		return readSplitNPZ(path)
	}
	f, _, err := regfile.Open(path)
	if err != nil {
		return Split{}, fmt.Errorf("split file: %w", err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxSplitFileBytes+1))
	if err != nil {
		return Split{}, fmt.Errorf("split file %s: %w", path, err)
	}
	if len(b) > maxSplitFileBytes {
		return Split{}, fmt.Errorf("split file %s: over %d MB", path, maxSplitFileBytes>>20)
	}
	var parts map[string][]int
	if err := json.Unmarshal(b, &parts); err != nil {
		return Split{}, fmt.Errorf("split file %s: want an .npz or a JSON object of index lists under train, val and test: %w", path, err)
	}
	get := func(names ...string) ([]int, error) {
		for _, n := range names {
			if v, ok := parts[n]; ok {
				return v, nil
			}
		}
		return nil, fmt.Errorf("split file %s: no list under %s", path, quoteNames(names))
	}
	return readSplitParts(get)
}

// readSplitNPZ reads the .npz form of ReadSplitFile.
func readSplitNPZ(path string) (Split, error) {
	z, err := npy.ReadNPZFile(path)
	if err != nil {
		return Split{}, fmt.Errorf("split file: %w", err)
	}
	get := func(names ...string) ([]int, error) {
		var a *npy.Array
		for _, n := range names {
			if a, err = z.Array(n); err == nil {
				break
			}
		}
		if a == nil {
			return nil, fmt.Errorf("split file %s: no array %s", path, quoteNames(names))
		}
		v, err := a.Int64s()
		if err != nil {
			return nil, fmt.Errorf("split file %s: array %s: %w", path, names[0], err)
		}
		out := make([]int, len(v))
		for i, x := range v {
			out[i] = int(x)
		}
		return out, nil
	}
	return readSplitParts(get)
}

// readSplitParts assembles a Split from get's train, val (or valid) and test lists.
func readSplitParts(get func(names ...string) ([]int, error)) (Split, error) {
	var s Split
	var err error
	if s.Train, err = get("train"); err != nil {
		return Split{}, err
	}
	if s.Val, err = get("val", "valid"); err != nil {
		return Split{}, err
	}
	if s.Test, err = get("test"); err != nil {
		return Split{}, err
	}
	return s, nil
}

// useSplitFile replaces d's split with the one in path (see ReadSplitFile), checked
// against d: indices of its nodes (transductive) or graphs, none twice, none in two
// parts, none of an unlabelled node.
func useSplitFile(d *Dataset, path string) error {
	s, err := ReadSplitFile(path)
	if err != nil {
		return err
	}
	prev := d.Split
	d.Split = s
	if err := d.validateSplit(false); err != nil {
		d.Split = prev
		return fmt.Errorf("split file %s: %w", path, err)
	}
	d.Transforms = append(d.Transforms, fmt.Sprintf("split from %s (%d/%d/%d)", filepath.Base(path), len(s.Train), len(s.Val), len(s.Test)))
	return nil
}

// quoteNames lists names quoted, joined by "or".
func quoteNames(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, " or ")
}
