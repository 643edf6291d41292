package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/gexph/gexph/data"
	"github.com/gexph/gexph/expander"
	"github.com/gexph/gexph/gexph"
	"github.com/gexph/gexph/internal/jsonfile"
	"github.com/gexph/gexph/internal/sysinfo"
	"github.com/gexph/gexph/layers"
	"github.com/gexph/gexph/spectral"
	"github.com/gexph/gexph/suite"
	"github.com/gexph/gexph/tools/bench"
)

// benchReport is the -json output of one `gexph bench` case.
type benchReport struct {
	Case    string `json:"case"`
	N       int    `json:"n"`
	E       int    `json:"e,omitempty"`
	D       int    `json:"d,omitempty"`
	Hidden  int    `json:"hidden,omitempty"`
	Heads   int    `json:"heads,omitempty"`
	Backend string `json:"backend,omitempty"`
	// Expander case: seconds to generate and to certify (λ₂, λₙ).
	GenerateSeconds float64 `json:"generate_seconds,omitempty"`
	CertifySeconds  float64 `json:"certify_seconds,omitempty"`
	Lambda2         float64 `json:"lambda2,omitempty"`
	LambdaMin       float64 `json:"lambda_min,omitempty"`
	// Step cases: median milliseconds per training step.
	MsPerStep float64 `json:"ms_per_step,omitempty"`
	WarmupMs  float64 `json:"warmup_ms,omitempty"`
	PeakRSSMB float64 `json:"peak_rss_mb"`
}

func runBench(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("bench", "-case model|census -preset NAME [-dataset SPEC] [-set JSON] [-batch B] | -case expander|attention|gps|scaling -n N [-e E] [-d D] [-hidden 64] [-heads 4] [-backend B] [-json] | -table", stderr)
	kind := fs.String("case", "model", "what to measure: model (a training step of a preset's whole model), census (what the compiled training step and inference pass of a preset's model are made of: operations by kind, gathers and scatters with their sizes, host-device transfers; nothing runs), expander, attention, gps (one layer's training step on a random graph), or scaling (one point of the scaling suite: a training epoch of the GCN + attention model on a planted-partition graph of n nodes)")
	preset := fs.String("preset", "pattern", "model case: the preset ("+strings.Join(gexph.PresetNames(), ", ")+")")
	dataset := fs.String("dataset", "", "model case: the data set (default: the preset's; planted:N for the scaling preset)")
	set := fs.String("set", "", `model case: JSON object of config fields overriding the preset, e.g. '{"hidden_dim":64}'`)
	batch := fs.Int("batch", 0, "model case: graphs per batch (0: the preset's batch size; transductive sets use the whole graph)")
	dataDir := fs.String("data-dir", "", "model case: the data root (default $GEXPH_DATA, else ../shared/data)")
	cpuProfile := fs.String("cpuprofile", "", "model case: write a CPU profile of the timed steps to this file (go tool pprof)")
	noMemCheck := fs.Bool("no-memory-check", false, "model case: measure a step that the memory estimate refuses (an upper bound: the step may still run out of memory)")
	n := fs.Int("n", 10000, "number of nodes")
	e := fs.Int("e", 120000, "number of interaction edges (attention, gps)")
	d := fs.Int("d", 6, "expander degree (expander)")
	hidden := fs.Int("hidden", 64, "hidden size (attention, gps)")
	heads := fs.Int("heads", 4, "attention heads (attention, gps)")
	steps := fs.Int("steps", 0, "timed training steps (0: 5 for model, 10 for attention and gps)")
	seed := fs.Uint64("seed", 1, "random seed")
	backend := fs.String("backend", "go", "compute backend: go; cuda (an NVIDIA GPU, through the pip-installed jax-cuda13-pjrt that gexph finds; needs make build-xla); auto (cuda where there is one, else go); xla:cpu or xla:/path/to/plugin.so")
	asJSON := fs.Bool("json", false, "print one JSON object")
	attention := fs.String("attention", "exphormer", "attention of the scaling case: exphormer or full")
	settings := fs.String("settings", "", "scaling case: JSON object of suite.ScalingSettings fields overriding the defaults")
	table := fs.Bool("table", false, "run the standard cases, each in its own process, and print a table")
	if err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	if *table {
		return benchTable(stdout, stderr, *backend)
	}
	if *steps < 0 {
		return fmt.Errorf("-steps %d: want ≥ 1 timed steps (0 for the default)", *steps)
	}
	var rep benchReport
	var err error
	switch *kind {
	case "model":
		return benchModel(stdout, bench.ModelBenchConfig{Preset: *preset, Dataset: *dataset, Set: *set, Batch: *batch,
			Steps: *steps, Backend: *backend, DataDir: *dataDir, CPUProfile: *cpuProfile, NoMemoryCheck: *noMemCheck}, *asJSON)
	case "census":
		return benchCensus(stdout, bench.ModelBenchConfig{Preset: *preset, Dataset: *dataset, Set: *set, Batch: *batch,
			Backend: *backend, DataDir: *dataDir, NoMemoryCheck: *noMemCheck}, *asJSON)
	case "expander":
		rep, err = benchExpander(*n, *d, *seed)
	case suite.SuiteScaling:
		return benchScaling(stdout, *n, *attention, *settings, *backend, *asJSON)
	case bench.BenchAttention, bench.BenchGPS:
		var res bench.StepBenchResult
		res, err = bench.RunStepBenchmark(bench.StepBenchConfig{
			Case: *kind, N: *n, E: *e, Hidden: *hidden, Heads: *heads, Steps: cmp.Or(*steps, 10), Seed: *seed, Backend: *backend,
		})
		rep = benchReport{Case: *kind, N: *n, E: *e, Hidden: *hidden, Heads: *heads, Backend: *backend,
			MsPerStep: res.MedianMs, WarmupMs: res.WarmupMs, PeakRSSMB: res.PeakRSSMB}
	default:
		return fmt.Errorf("unknown -case %q (choices: model, census, expander, attention, gps, scaling)", *kind)
	}
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(stdout, rep)
	}
	return printBenchTable(stdout, []benchReport{rep})
}

// benchCensus prints the census of a preset's compiled training step and inference pass.
func benchCensus(stdout io.Writer, cfg bench.ModelBenchConfig, asJSON bool) error {
	res, err := bench.RunCensus(cfg)
	if err != nil {
		return err
	}
	if asJSON {
		return writeJSON(stdout, res)
	}
	fmt.Fprintf(stdout, "preset %s on %s: %d parameters; batch of %d graphs, %d nodes, %d interaction edges\n",
		res.Preset, res.Dataset, res.Params, res.Graphs, res.Nodes, res.InteractionEdges)
	for _, c := range []*gexph.Census{res.Train, res.Inference} {
		t := c.Transfers
		fmt.Fprintf(stdout, "\n%s: %d operations, %.3g output elements; per call %d arrays host→device (%.1f MB), %d device→host (%.1f kB); %d variables on the device (%.1f MB)\n",
			c.Program, c.Ops, float64(c.Elements), t.HostToDevice, float64(t.HostToDeviceBytes)/1e6, t.DeviceToHost, float64(t.DeviceToHostBytes)/1e3, t.Variables, float64(t.VariableBytes)/1e6)
		w := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(w, "operation\tcount\telements\t")
		for _, k := range c.ByKind[:min(len(c.ByKind), 15)] {
			fmt.Fprintf(w, "%s\t%d\t%.3g\t\n", k.Kind, k.Count, float64(k.Elements))
		}
		w.Flush()
		fmt.Fprintln(stdout, "gathers and scatters (operand, indices → output) × count:")
		for _, op := range c.Indexed[:min(len(c.Indexed), 12)] {
			fmt.Fprintf(stdout, "  %-12s %v, %v → %v × %d\n", op.Kind, op.Operand, op.Indices, op.Output, op.Count)
		}
	}
	return nil
}

// benchModel measures training steps of a preset's whole model in this process.
func benchModel(stdout io.Writer, cfg bench.ModelBenchConfig, asJSON bool) error {
	res, err := bench.RunModelBenchmark(cfg)
	if err != nil {
		return err
	}
	if asJSON {
		return writeJSON(stdout, res)
	}
	fmt.Fprintf(stdout, "preset %s on %s: %d parameters\n", res.Preset, res.Dataset, res.Params)
	fmt.Fprintf(stdout, "batch: %d graphs, %d nodes, %d edges, %d interaction edges\n", res.Graphs, res.Nodes, res.Edges, res.InteractionEdges)
	fmt.Fprintf(stdout, "training step: %.1f ms median (CPU %.1f ms; first step %.0f ms with compilation), %.0f graphs/s, %.0f nodes/s\n",
		res.MsPerStep, res.CPUMsPerStep, res.WarmupMs, res.GraphsPerSec, res.NodesPerSec)
	fmt.Fprintf(stdout, "inference pass: %.1f ms\npeak memory: %.0f MiB\n", res.ForwardMs, res.PeakRSSMB)
	return nil
}

// benchScaling measures one point of the scaling suite in this process.
func benchScaling(stdout io.Writer, n int, attention, settingsJSON, backend string, asJSON bool) error {
	s, err := parseScalingSettings(settingsJSON)
	if err != nil {
		return err
	}
	o := data.DefaultPlantedPartitionOptions(n, s.Seed)
	o.AvgDegree = s.AvgDegree
	if err := sysinfo.MemoryBudget().Refuse(fmt.Sprintf("a planted-partition graph of -n %d nodes", n), float64(data.PlantedPartitionBytes(o))); err != nil {
		return err
	}
	res, err := suite.MeasureScaling(context.Background(), s, suite.ScalingPoint{Attention: layers.GlobalModel(attention), Nodes: n}, backend)
	if err != nil {
		return err
	}
	if asJSON {
		return writeJSON(stdout, res)
	}
	fmt.Fprintf(stdout, "%s attention, %d nodes, %d edges, %d parameters: %.3f s/epoch, peak %.0f MiB\n",
		res.Attention, res.Nodes, res.Edges, res.Params, res.EpochSeconds, res.PeakRSSMB)
	return nil
}

// parseScalingSettings returns the default scaling settings overridden by the fields
// of a JSON object ("" for none); unknown fields are errors.
func parseScalingSettings(js string) (suite.ScalingSettings, error) {
	s := suite.DefaultScalingSettings()
	if js == "" {
		return s, nil
	}
	if err := jsonfile.DecodeStrict(js, &s); err != nil {
		return s, fmt.Errorf("-settings %s: %w", js, err)
	}
	return s, s.Validate()
}

// benchExpander times the generation of a standard d-regular expander and its
// certification (λ₂ and λₙ by Lanczos), and reports the process's peak memory.
func benchExpander(n, d int, seed uint64) (benchReport, error) {
	opts := expander.DefaultOptions(n, d, seed)
	opts.Certify = false
	if err := checkExpanderMemory(opts, sysinfo.MemoryBudget()); err != nil {
		return benchReport{}, err
	}
	start := time.Now()
	ex, err := expander.Generate(opts)
	if err != nil {
		return benchReport{}, err
	}
	gen := time.Since(start).Seconds()
	start = time.Now()
	l2, lmin, err := spectral.ExpanderEigenvalues(ex.Graph())
	if err != nil {
		return benchReport{}, err
	}
	cert := time.Since(start).Seconds()
	return benchReport{Case: "expander", N: n, D: d, GenerateSeconds: gen, CertifySeconds: cert,
		Lambda2: l2, LambdaMin: lmin, PeakRSSMB: sysinfo.PeakRSSMB()}, nil
}

// benchTable runs the standard benchmark cases, each in a fresh process of this program
// so that every row's peak memory is its own, and prints one table.
func benchTable(stdout, stderr io.Writer, backend string) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	cases := [][]string{
		{"-case", "expander", "-n", "10000"},
		{"-case", "expander", "-n", "100000"},
		{"-case", "expander", "-n", "1000000"},
		{"-case", "attention", "-n", "10000", "-e", "120000"},
		{"-case", "attention", "-n", "100000", "-e", "1200000", "-steps", "5"},
		{"-case", "gps", "-n", "10000", "-e", "120000"},
	}
	var rows []benchReport
	for _, c := range cases {
		args := append([]string{"bench", "-json", "-backend", backend}, c...)
		fmt.Fprintf(stderr, "running gexph %s\n", strings.Join(args, " "))
		cmd := exec.Command(self, args...)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("bench %s: %w", strings.Join(c, " "), err)
		}
		var rep benchReport
		if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
			return fmt.Errorf("bench %s: reading its output: %w", strings.Join(c, " "), err)
		}
		rows = append(rows, rep)
	}
	return printBenchTable(stdout, rows)
}

func printBenchTable(w io.Writer, rows []benchReport) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "case\tn\te / d\tgenerate s\tcertify s\tms/step\tpeak MB\t")
	for _, r := range rows {
		switch r.Case {
		case "expander":
			fmt.Fprintf(tw, "%s\t%d\td=%d\t%.3f\t%.2f\t-\t%.0f\t\n", r.Case, r.N, r.D, r.GenerateSeconds, r.CertifySeconds, r.PeakRSSMB)
		default:
			fmt.Fprintf(tw, "%s (h=%d, %d heads)\t%d\t%d\t-\t-\t%.1f\t%.0f\t\n", r.Case, r.Hidden, r.Heads, r.N, r.E, r.MsPerStep, r.PeakRSSMB)
		}
	}
	return tw.Flush()
}
