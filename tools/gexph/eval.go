package main

import (
	"context"
	"encoding/csv"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"

	"github.com/gexph/gexph/data"
	"github.com/gexph/gexph/gexph"
	"github.com/gexph/gexph/internal/atomicfile"
)

// checkpointData loads the data set for the checkpoint at ckpt: spec, or the
// checkpoint's own data set when spec is empty, with the seed and split sizes of the
// checkpoint's config (gexph.DataOptions), so that its splits are the training run's.
// A dataSeed (non-nil) draws a generated data set from that seed instead: fresh graphs
// of the same distribution.
func checkpointData(ckpt string, df dataFlags, dataSeed *uint64) (*data.Dataset, gexph.CheckpointInfo, error) {
	if ckpt == "" {
		return nil, gexph.CheckpointInfo{}, fmt.Errorf("-ckpt is required (e.g. runs/x/best.ckpt)")
	}
	info, err := gexph.ReadCheckpointInfo(ckpt)
	if err != nil {
		return nil, info, err
	}
	spec := *df.spec
	if spec == "" {
		spec = info.Dataset
	}
	lo := gexph.DataOptions(info.Config, df.options(0))
	if dataSeed != nil {
		if !data.Generated(spec) {
			return nil, info, fmt.Errorf("-data-seed %d: %s is read from files, where the seed draws only the split (another split would test on training nodes); -data-seed applies to generated data sets (pattern, cluster, planted:N)", *dataSeed, spec)
		}
		lo.Seed = *dataSeed
	}
	ds, err := data.Load(spec, lo)
	if err != nil {
		return nil, info, fmt.Errorf("-dataset %s: %w (the checkpoint was trained on %q)", spec, err, info.Dataset)
	}
	return ds, info, nil
}

// addDataSeedFlag adds -data-seed to fs; the function returned gives its value, or nil
// when the flag was not given.
func addDataSeedFlag(fs *flag.FlagSet) func() *uint64 {
	seed := fs.Uint64("data-seed", 0, "generated data sets (pattern, cluster, planted:N): draw the graphs from this seed instead of the checkpoint's, to see that the model generalises beyond its own draw")
	return func() *uint64 {
		given := false
		fs.Visit(func(f *flag.Flag) { given = given || f.Name == "data-seed" })
		if !given {
			return nil
		}
		return seed
	}
}

// evalReport is eval's -json output: the evaluation and, with -data-seed, the seed the
// graphs were drawn from.
type evalReport struct {
	*gexph.EvalResult
	DataSeed *uint64 `json:"data_seed,omitempty"`
}

func runEval(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("eval", "-ckpt RUN/best.ckpt [-dataset SPEC] [-data-seed S] [-split train|val|test|all] [-backend B] [-json]", stderr)
	ckpt := fs.String("ckpt", "", "checkpoint to evaluate (best.ckpt or last.ckpt of a run)")
	df := addDataFlags(fs, "")
	dataSeed := addDataSeedFlag(fs)
	split := fs.String("split", "all", "split to evaluate: train, val, test or all")
	backend := fs.String("backend", "go", "compute backend: go, xla:cpu or xla:/path/to/plugin.so")
	asJSON := fs.Bool("json", false, "print one JSON object")
	if err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	switch *split {
	case "train", "val", "test", "all":
	default:
		return fmt.Errorf("-split %q: want train, val, test or all", *split)
	}
	seed := dataSeed()
	ds, _, err := checkpointData(*ckpt, df, seed)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	res, err := gexph.Evaluate(ctx, *ckpt, ds, gexph.ModelOptions{Backend: *backend})
	if err != nil {
		return err
	}
	if *asJSON {
		if *split == "all" {
			return writeJSON(stdout, evalReport{res, seed})
		}
		out := map[string]any{"dataset": res.Dataset, "metric": res.Metric, "epoch": res.Epoch,
			"split": *split, *split: map[string]gexph.SplitResult{"train": res.Train, "val": res.Val, "test": res.Test}[*split]}
		if seed != nil {
			out["data_seed"] = *seed
		}
		return writeJSON(stdout, out)
	}
	drawn := ""
	if seed != nil {
		drawn = fmt.Sprintf(" (graphs drawn from seed %d, not the run's)", *seed)
	}
	fmt.Fprintf(stdout, "checkpoint   %s (epoch %d)\ndata set     %s%s\n", *ckpt, res.Epoch, res.Dataset, drawn)
	for _, s := range []struct {
		name string
		r    gexph.SplitResult
	}{{"train", res.Train}, {"val", res.Val}, {"test", res.Test}} {
		if *split == "all" || *split == s.name {
			fmt.Fprintf(stdout, "%-6s loss %.4f  %s %.4f\n", s.name, s.r.Loss, res.Metric, s.r.Metric)
		}
	}
	return nil
}

func runPredict(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("predict", "-ckpt RUN/best.ckpt [-dataset SPEC] [-split test] -out preds.csv", stderr)
	ckpt := fs.String("ckpt", "", "checkpoint to predict with")
	df := addDataFlags(fs, "")
	split := fs.String("split", "test", "split to predict: train, val or test")
	backend := fs.String("backend", "go", "compute backend: go, xla:cpu or xla:/path/to/plugin.so")
	out := fs.String("out", "", "CSV file of the predictions (graph, node, label, class, score_0, …); - for standard output")
	if err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	if *out == "" {
		return fmt.Errorf("-out is required (a CSV file, or - for standard output)")
	}
	ds, _, err := checkpointData(*ckpt, df, nil)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	preds, err := gexph.Predict(ctx, *ckpt, ds, *split, gexph.ModelOptions{Backend: *backend})
	if err != nil {
		return err
	}
	write := func(w io.Writer) error { return writePredictions(w, preds) }
	if *out == "-" {
		return write(stdout)
	}
	if err := atomicfile.Write(*out, write); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %d predictions of the %s split to %s\n", len(preds), *split, *out)
	return nil
}

// writePredictions writes predictions as CSV: graph, node (−1 for a graph), label and
// class (−1 where the task has none), then one score column per output.
func writePredictions(w io.Writer, preds []gexph.Prediction) error {
	cw := csv.NewWriter(w)
	k := 0
	if len(preds) > 0 {
		k = len(preds[0].Scores)
	}
	head := []string{"graph", "node", "label", "class"}
	for j := range k {
		head = append(head, "score_"+strconv.Itoa(j))
	}
	cw.Write(head)
	for _, p := range preds {
		row := []string{strconv.Itoa(p.Graph), strconv.Itoa(p.Node), strconv.Itoa(p.Label), strconv.Itoa(p.Class)}
		for _, s := range p.Scores {
			row = append(row, strconv.FormatFloat(s, 'g', 6, 64))
		}
		cw.Write(row)
	}
	cw.Flush()
	return cw.Error()
}

func runExport(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("export", "-ckpt RUN/best.ckpt -out weights.safetensors [-with-batch batch.npz [-batch-graphs N] [-dataset SPEC]]", stderr)
	ckpt := fs.String("ckpt", "", "checkpoint to export")
	out := fs.String("out", "", "safetensors file to write")
	df := addDataFlags(fs, "")
	withBatch := fs.String("with-batch", "", "also write one batch of the checkpoint's data set (its test graphs, or the whole graph) with the model's outputs on it, as .npz: what tools/torch/gexph_torch.py must reproduce")
	batchGraphs := fs.Int("batch-graphs", 8, "with -with-batch: at most this many test graphs")
	if err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	if *ckpt == "" || *out == "" {
		return fmt.Errorf("-ckpt and -out are required")
	}
	n, err := gexph.ExportSafetensors(*ckpt, *out)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %d tensors to %s\n", n, *out)
	if *withBatch != "" {
		be, err := writeExportBatch(*ckpt, df, *withBatch, *batchGraphs)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote a batch of %d graphs (%d output rows) to %s\n", len(be.Graphs), be.Rows, *withBatch)
	}
	return nil
}
