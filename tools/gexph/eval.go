package main

import (
	"cmp"
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
	"github.com/gexph/gexph/gexph/torchexport"
	"github.com/gexph/gexph/internal/atomicfile"
)

// checkpointData loads the data set for the checkpoint at ckpt: spec, or the
// checkpoint's own data set when spec is empty (the spec it recorded, its path absolute;
// the name in checkpoints of older versions), with the seed, split sizes and transforms
// of the checkpoint's config (gexph.DataOptions), so that its splits are the training
// run's. A dataSeed (non-nil) draws a generated data set from that seed instead: fresh
// graphs of the same distribution. other tells whether the data is not the run's own
// (another fingerprint): new data, which the model is applied to when its schema fits
// (gexph checks and names what differs), with a note on stderr naming it. The run's own
// data changed since the run (no -dataset, another fingerprint) is refused.
func checkpointData(ckpt string, df dataFlags, dataSeed *uint64, stderr io.Writer) (ds *data.Dataset, info gexph.CheckpointInfo, other bool, err error) {
	if ckpt == "" {
		return nil, info, false, fmt.Errorf("-ckpt is required (e.g. runs/x/best.ckpt)")
	}
	if info, err = gexph.ReadCheckpointInfo(ckpt); err != nil {
		return nil, info, false, err
	}
	spec, own := *df.spec, *df.spec == ""
	if own {
		spec = cmp.Or(info.DatasetSpec, info.Dataset)
	}
	lo := gexph.DataOptions(info.Config, df.options(0, stderr))
	if dataSeed != nil {
		if !data.Generated(spec) {
			return nil, info, false, fmt.Errorf("-data-seed %d: %s is read from files, where the seed draws only the split (another split would test on training nodes); -data-seed applies to generated data sets (pattern, cluster, planted:N)", *dataSeed, spec)
		}
		lo.Seed = *dataSeed
	}
	if ds, err = data.Load(spec, lo); err != nil {
		if own {
			return nil, info, false, fmt.Errorf("the checkpoint's data set %s: %w (give -dataset SPEC where the data now lies)", spec, err)
		}
		return nil, info, false, fmt.Errorf("-dataset %s: %w (the checkpoint was trained on %q)", spec, err, trainedOn(info))
	}
	other = dataSeed != nil
	if info.DatasetFingerprint != "" && dataSeed == nil {
		if fp := ds.Fingerprint(); fp != info.DatasetFingerprint {
			if own {
				return nil, info, false, fmt.Errorf("the checkpoint's data set %s has changed since the run (fingerprint %s, the run's %s): its files were edited or replaced, so its splits and results would not be the run's; to apply the model to these files as new data, name them with -dataset %s",
					spec, fp, info.DatasetFingerprint, spec)
			}
			other = true
		}
	}
	if other && dataSeed == nil {
		fmt.Fprintf(stderr, "note: %s is other data than the checkpoint was trained on (%s): applying the model to it (the checkpoint's schema: %s)\n",
			spec, trainedOn(info), describeSchema(info))
	}
	return ds, info, other, nil
}

// describeSchema is the checkpoint's schema in words, or what older checkpoints say.
func describeSchema(info gexph.CheckpointInfo) string {
	if info.Schema == nil {
		return "read from its variables: a checkpoint of an older version"
	}
	return info.Schema.String()
}

// trainedOn names the data a checkpoint was trained on: its spec, else its name.
func trainedOn(info gexph.CheckpointInfo) string { return cmp.Or(info.DatasetSpec, info.Dataset) }

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
	if _, err := data.ParseSplitName(*split, "all"); *split != "all" && err != nil {
		return fmt.Errorf("-split: %w", err)
	}
	seed := dataSeed()
	ds, _, _, err := checkpointData(*ckpt, df, seed, stderr)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var splits []string
	for _, n := range data.SplitNames() {
		splits = append(splits, string(n))
	}
	if *split != "all" {
		splits = []string{*split}
	}
	res, err := gexph.EvaluateSplits(ctx, *ckpt, ds, gexph.ModelOptions{Backend: *backend}, splits...)
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
	fs := newFlagSet("predict", "-ckpt RUN/best.ckpt [-dataset SPEC] [-data-seed S] [-split train|val|test|unlabelled|all] -out preds.csv", stderr)
	ckpt := fs.String("ckpt", "", "checkpoint to predict with")
	df := addDataFlags(fs, "")
	dataSeed := addDataSeedFlag(fs)
	split := fs.String("split", "test", "examples to predict: train, val or test; unlabelled (the nodes without a label, of a semi-supervised graph) or all (every node, or graph); default: test on the run's own data, all on other data")
	backend := fs.String("backend", "go", "compute backend: go, xla:cpu or xla:/path/to/plugin.so")
	out := fs.String("out", "", "CSV file of the predictions (graph, node, id: the node's id in your files, label, class, score_0, …); - for standard output")
	if err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	if *out == "" {
		return fmt.Errorf("-out is required (a CSV file, or - for standard output)")
	}
	if _, err := data.ParseSplitName(*split, "unlabelled", "all"); *split != "all" && *split != "unlabelled" && err != nil {
		return fmt.Errorf("-split: %w", err)
	}
	ds, _, other, err := checkpointData(*ckpt, df, dataSeed(), stderr)
	if err != nil {
		return err
	}
	if other && !given(fs, "split") {
		*split = "all" // new data: every node, or graph
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

// writePredictions writes predictions as CSV: graph, node (−1 for a graph), id (the
// node's original id, its row in the user's files: gexph.Prediction.ID), label and class
// (−1 where the task has none), then one score column per output.
func writePredictions(w io.Writer, preds []gexph.Prediction) error {
	cw := csv.NewWriter(w)
	k := 0
	if len(preds) > 0 {
		k = len(preds[0].Scores)
	}
	head := []string{"graph", "node", "id", "label", "class"}
	for j := range k {
		head = append(head, "score_"+strconv.Itoa(j))
	}
	cw.Write(head)
	for _, p := range preds {
		row := []string{strconv.Itoa(p.Graph), strconv.Itoa(p.Node), strconv.FormatInt(p.ID, 10), strconv.Itoa(p.Label), strconv.Itoa(p.Class)}
		for _, s := range p.Scores {
			row = append(row, strconv.FormatFloat(s, 'g', 6, 64))
		}
		cw.Write(row)
	}
	cw.Flush()
	return cw.Error()
}

func runExport(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("export", "-ckpt RUN/best.ckpt -out weights.safetensors [-with-batch batch.npz [-batch-graphs N] [-dataset SPEC]] | -ckpt RUN/best.ckpt -half -out model.ckpt [-dataset SPEC]", stderr)
	ckpt := fs.String("ckpt", "", "checkpoint to export")
	out := fs.String("out", "", "safetensors file to write (a gexph checkpoint with -half)")
	half := fs.Bool("half", false, "write a gexph checkpoint with the weights stored as float16 instead (half the size, the values rounded to 11 significant bits), evaluate it on the run's validation and test splits and record their metrics in it (the report shows them)")
	df := addDataFlags(fs, "")
	withBatch := fs.String("with-batch", "", "also write one batch of the checkpoint's data set (its test graphs, or the whole graph) with the model's outputs on it, as .npz: what tools/torch/gexph_torch.py must reproduce")
	batchGraphs := fs.Int("batch-graphs", 8, "with -with-batch: at most this many test graphs")
	if err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	if *ckpt == "" || *out == "" {
		return fmt.Errorf("-ckpt and -out are required")
	}
	if *half {
		if *withBatch != "" {
			return fmt.Errorf("-half writes a checkpoint; -with-batch goes with a safetensors export")
		}
		return exportHalf(*ckpt, *out, df, stdout, stderr)
	}
	n, err := torchexport.Safetensors(*ckpt, *out)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %d tensors to %s\n", n, *out)
	if *withBatch != "" {
		be, err := writeExportBatch(*ckpt, df, *withBatch, *batchGraphs, stderr)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote a batch of %d graphs (%d output rows) to %s\n", len(be.Graphs), be.Rows, *withBatch)
	}
	return nil
}

// exportHalf writes the float16 copy of the checkpoint ckpt to out, evaluates it on the
// run's validation and test splits and records their metrics in it.
func exportHalf(ckpt, out string, df dataFlags, stdout, stderr io.Writer) error {
	ds, info, other, err := checkpointData(ckpt, df, nil, stderr)
	if err != nil {
		return err
	}
	if other {
		return fmt.Errorf("-half records the model's validation and test metrics on the data it was trained on (%s), not on %s: leave -dataset out, or name where the run's data now lies", trainedOn(info), *df.spec)
	}
	half, err := gexph.WriteHalfCheckpoint(ckpt, out)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	res, err := gexph.EvaluateSplits(ctx, out, ds, gexph.ModelOptions{}, "val", "test")
	if err != nil {
		return fmt.Errorf("evaluating %s: %w", out, err)
	}
	if err := gexph.SetHalfMetrics(out, res.Val.Metric, res.Test.Metric); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s: float16 weights (largest relative rounding error %.2g); %s validation %.6f, test %.6f\n",
		out, half.MaxRelError, res.Metric, res.Val.Metric, res.Test.Metric)
	return nil
}
