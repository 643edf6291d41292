package suite

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gexph/gexph/gexph"
	"gonum.org/v1/gonum/stat/distuv"
)

// plusSplitFileDir is the folder, under the plus suite's records (ROOT/plus), of runs of
// the plus presets on a fixed split file, Luo et al.'s: each run's result.json (`gexph
// train -dataset D -preset P -set '{"split_file":"…"}' -seed S -out DIR`), copied there
// under any name ending in .json. The report sets them beside the published figures,
// which come from the same split.
const plusSplitFileDir = "luo-split"

// splitFileRuns is what the runs of one preset on one split file gave: the test metric
// of each seed, in seed order.
type splitFileRuns struct {
	dataset, preset, splitFile, metric string
	seeds                              []int
	tests                              []float64
}

// readSplitFileRuns reads the result.json records under dir (none if dir does not
// exist), grouped by data set, preset and split file (its base name), each group's runs
// in seed order. A record that is not a run's result, names no split file or repeats a
// seed of its group is an error naming the file.
func readSplitFileRuns(dir string) ([]splitFileRuns, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	type run struct {
		key  splitFileRuns // Its group: data set, preset, split file and metric.
		seed int
		test float64
		path string
	}
	var runs []run
	for _, path := range paths {
		var r gexph.Result
		raw, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(raw, &r); err != nil {
			return nil, fmt.Errorf("plus report: %s: %w", path, err)
		}
		if r.Dataset == "" || r.Preset == "" || r.Epochs == 0 {
			return nil, fmt.Errorf("plus report: %s: not the result.json of a run (no data set, preset or epochs)", path)
		}
		if r.Config.SplitFile == "" {
			return nil, fmt.Errorf("plus report: %s: its run has no split_file: a run on random splits belongs to the suite's own records", path)
		}
		key := splitFileRuns{dataset: r.Dataset, preset: r.Preset, splitFile: filepath.Base(r.Config.SplitFile), metric: r.Metric}
		runs = append(runs, run{key: key, seed: int(r.Seed), test: r.TestMetric, path: path})
	}
	slices.SortStableFunc(runs, func(a, b run) int {
		return cmp.Or(cmp.Compare(a.key.dataset, b.key.dataset), cmp.Compare(a.key.splitFile, b.key.splitFile),
			cmp.Compare(a.key.preset, b.key.preset), cmp.Compare(a.seed, b.seed))
	})
	var out []splitFileRuns
	for i, r := range runs {
		same := i > 0 && runs[i-1].key.dataset == r.key.dataset && runs[i-1].key.preset == r.key.preset && runs[i-1].key.splitFile == r.key.splitFile
		switch {
		case same && runs[i-1].seed == r.seed:
			return nil, fmt.Errorf("plus report: %s: a second run of %s on %s with seed %d", r.path, r.key.preset, r.key.splitFile, r.seed)
		case !same:
			out = append(out, r.key)
		}
		g := &out[len(out)-1]
		g.seeds, g.tests = append(g.seeds, r.seed), append(g.tests, r.test)
	}
	return out, nil
}

// cell is the group's mean ± std over its seeds, in points, with the seeds.
func (g splitFileRuns) cell() string {
	scale := metricScale(g.metric)
	m, s := meanStd(g.tests)
	return fmt.Sprintf("%s (%s)", formatMeanStd(m*scale, s*scale, len(g.tests), 2), seedList(g.seeds))
}

// welchVerdict compares two groups of runs on one split (their seeds differ in the
// initialisation only, so they pair nothing): Welch's two-sided t test at 5 %, ex
// against base, with the difference of the means in points.
func welchVerdict(base, ex splitFileRuns) string {
	n1, n2 := float64(len(ex.tests)), float64(len(base.tests))
	if n1 < 2 || n2 < 2 {
		return fmt.Sprintf("%s (%d and %d)", verdictTooFew, len(ex.tests), len(base.tests))
	}
	scale := metricScale(base.metric)
	m1, s1 := meanStd(ex.tests)
	m2, s2 := meanStd(base.tests)
	// meanStd's spread is the population's: the sample variance is n/(n−1) of its square.
	v1, v2 := s1*s1/(n1-1), s2*s2/(n2-1)
	diff := (m1 - m2) * scale
	if v1+v2 == 0 {
		if diff == 0 {
			return fmt.Sprintf("**%s** (the same accuracy on every seed)", verdictNothing)
		}
		return fmt.Sprintf("**%s**, %+.2f points (no spread on either side)", tVerdict(diff, 0), diff)
	}
	t := (m1 - m2) / math.Sqrt(v1+v2)
	df := (v1 + v2) * (v1 + v2) / (v1*v1/(n1-1) + v2*v2/(n2-1))
	critical := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Quantile(0.975)
	verdict := tVerdict(t, critical)
	return fmt.Sprintf("**%s**, %+.2f points (Welch's t = %.2f against ±%.2f, %.1f degrees of freedom)", verdict, diff, t, critical, df)
}

// writePlusSplitFiles writes the plus section's part on Luo et al.'s split files from the
// records under dir (nothing when there are none): per data set and split file, the
// published figure and each plus preset's runs, and whether attention changes the
// accuracy there.
func writePlusSplitFiles(w io.Writer, dir string) error {
	groups, err := readSplitFileRuns(dir)
	if err != nil {
		return err
	}
	if len(groups) == 0 {
		return nil
	}
	fmt.Fprintf(w, "\n### On Luo et al.'s split files\n\n")
	fmt.Fprintf(w, "The same presets trained on the fixed 60/20/20 split that Luo et al. train every run on (`gexph train -dataset D -preset P -set '{\"split_file\":\"D_split.npz\"}' -seed S -out DIR`, the file from their repository's medium_graph/data; each run's result.json in `%s/`). Their seeds differ in the initialisation only, as Luo et al.'s runs do, so these rows compare with the published figure directly; the attention column is Welch's two-sided t test at 5 %% (seeds pair nothing on one split).\n\n", filepath.ToSlash(dir))
	fmt.Fprintln(w, "| Data set | Split file | Luo et al.'s best classic GNN | Ours: NAME-plus | Ours: NAME-plus-exphormer | Exphormer attention |")
	fmt.Fprintln(w, "|---|---|---:|---:|---:|---|")
	for _, s := range plusSets() {
		var splits []string
		for _, g := range groups {
			if g.dataset == s.name && !slices.Contains(splits, g.splitFile) {
				splits = append(splits, g.splitFile)
			}
		}
		for _, split := range splits {
			var base, ex *splitFileRuns
			var others []string
			for i := range groups {
				g := &groups[i]
				switch {
				case g.dataset != s.name || g.splitFile != split:
				case g.preset == s.name+"-"+VariantPlus:
					base = g
				case g.preset == s.name+"-"+VariantPlusExphormer:
					ex = g
				default:
					others = append(others, g.preset+": "+g.cell())
				}
			}
			cell := func(g *splitFileRuns) string {
				if g == nil {
					return notRunYet
				}
				return g.cell()
			}
			effect := "—"
			if base != nil && ex != nil {
				effect = welchVerdict(*base, *ex)
			}
			if len(others) > 0 {
				effect += "; other presets: " + strings.Join(others, "; ")
			}
			fmt.Fprintf(w, "| %s | %s | %.2f ± %.2f (%s) | %s | %s | %s |\n", s.title, split, s.published.Mean, s.published.Std, s.model, cell(base), cell(ex), effect)
		}
	}
	return nil
}
