package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"

	"github.com/gexph/gexph/gexph"
)

func runTrain(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("train", "-dataset NAME|npz:PATH|ogb:DIR|edgelist:DIR [-preset NAME] [-epochs N] [-seed S] [-backend B] [-out DIR] [-json]", stderr)
	df := addDataFlags(fs, "pattern")
	preset := fs.String("preset", "", "hyperparameter preset ("+strings.Join(gexph.PresetNames(), ", ")+"); default: the data set's name")
	configFile := fs.String("config", "", "JSON file of config fields overriding the preset")
	set := fs.String("set", "", `JSON object of config fields overriding the preset and -config, e.g. '{"layers":3}'`)
	epochs := fs.Int("epochs", 0, "training epochs (0: the preset's)")
	seed := fs.Uint64("seed", 0, "seed of initialisation, expanders, shuffling and splits (0: the preset's)")
	backend := fs.String("backend", "go", "compute backend: go, xla:cpu or xla:/path/to/plugin.so")
	padding := fs.String("padding", "", "pad batches to bucketed shapes: none, pow2, exp:B, linear:S (default: none on the go backend, pow2 for batches of graphs on XLA)")
	out := fs.String("out", "", "directory for checkpoints, the per-epoch log (log.jsonl) and result.json")
	resume := fs.Bool("resume", false, "continue from OUT/last.ckpt")
	asJSON := fs.Bool("json", false, "print the final result as one JSON object (without the per-epoch history)")
	quiet := fs.Bool("quiet", false, "no per-epoch progress lines")
	if err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	if *epochs < 0 {
		return fmt.Errorf("-epochs %d: want a positive number of epochs (0 for the preset's)", *epochs)
	}
	name := *preset
	if name == "" {
		name = strings.ToLower(*df.spec)
		if !slices.Contains(gexph.PresetNames(), name) {
			return fmt.Errorf("-preset is required for data set %q (presets: %s)", *df.spec, strings.Join(gexph.PresetNames(), ", "))
		}
	}
	cfg, err := gexph.Preset(name)
	if err != nil {
		return err
	}
	if *configFile != "" {
		if cfg, err = gexph.LoadConfig(cfg, *configFile); err != nil {
			return err
		}
	}
	if *set != "" {
		if cfg, err = gexph.ParseConfig(cfg, *set); err != nil {
			return fmt.Errorf("-set: %w", err)
		}
	}
	if *epochs > 0 {
		cfg.Epochs = *epochs
	}
	if *seed != 0 {
		cfg.Seed = *seed
	}
	if *resume && *out == "" {
		return fmt.Errorf("-resume needs -out (the directory holding last.ckpt)")
	}
	opts := gexph.TrainOptions{OutDir: *out, Backend: *backend, Padding: *padding, Resume: *resume, Data: df.options(0)}
	if !*quiet {
		opts.Log = stderr
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	res, err := gexph.TrainFromSpec(ctx, *df.spec, cfg, opts)
	if err != nil {
		return err
	}
	if *asJSON {
		short := *res
		short.History = nil
		return writeJSON(stdout, short)
	}
	fmt.Fprintf(stdout, "data set     %s\npreset       %s\nparameters   %d\nepochs       %d (best %d%s)\n",
		res.Dataset, res.Preset, res.Params, res.Epochs, res.BestEpoch, map[bool]string{true: ", stopped early", false: ""}[res.EarlyStopped])
	fmt.Fprintf(stdout, "val %-8s %.4f\ntest %-7s %.4f\nseconds      %.1f\npeak memory  %.0f MiB\nbackend      %s\n",
		res.Metric, res.ValMetric, res.Metric, res.TestMetric, res.Seconds, res.PeakRSSMB, res.Backend)
	if *out != "" {
		fmt.Fprintf(stdout, "outputs      %s (best.ckpt, last.ckpt, log.jsonl, result.json)\n", *out)
	}
	return nil
}
