package main

import (
	"fmt"
	"io"
	"slices"

	"github.com/gexph/gexph/data/npy"
	"github.com/gexph/gexph/gexph"
	"github.com/gexph/gexph/gexph/torchexport"
	"github.com/gexph/gexph/internal/atomicfile"
)

// writeExportBatch writes one batch of the checkpoint's data set, as the model sees it,
// with the model's outputs on it, to path as .npz (see torchexport.ExportBatch): every present
// input by its snake_case name, "outputs" [rows, outDim], "graphs" (the data set
// indices of the batch's graphs) and "node_level" (whether the rows are nodes);
// tools/torch/gexph_torch.py reproduces the outputs. Warnings of the data go to warnings.
func writeExportBatch(ckpt string, df dataFlags, path string, maxGraphs int, warnings io.Writer) (*torchexport.Batch, error) {
	ds, _, _, err := checkpointData(ckpt, df, nil, warnings)
	if err != nil {
		return nil, err
	}
	be, err := torchexport.ExportBatch(ckpt, ds, maxGraphs, gexph.ModelOptions{})
	if err != nil {
		return nil, err
	}
	var entries []npy.Entry
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for k := range be.Inputs {
			if !yield(k) {
				return
			}
		}
	}) {
		a := be.Inputs[name]
		var values any = a.I32
		if a.Float {
			values = a.F32
		}
		entries = append(entries, npy.Entry{Name: name, Shape: a.Dims, Data: values})
	}
	graphs := make([]int64, len(be.Graphs))
	for i, g := range be.Graphs {
		graphs[i] = int64(g)
	}
	entries = append(entries,
		npy.Entry{Name: "outputs", Shape: []int{be.Rows, be.OutDim}, Data: be.Outputs},
		npy.Entry{Name: "graphs", Shape: []int{len(graphs)}, Data: graphs},
		npy.Entry{Name: "node_level", Shape: []int{}, Data: []bool{be.NodeLevel}})
	if err := atomicfile.Write(path, func(w io.Writer) error { return npy.WriteNPZ(w, entries) }); err != nil {
		return nil, fmt.Errorf("export -with-batch %s: %w", path, err)
	}
	return be, nil
}
