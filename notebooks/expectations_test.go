package notebooks_test

import (
	"fmt"
	"math"
	"regexp"
)

// expectation is what an executed notebook must show: at least figures PNG figures, and
// printed numbers that pass their checks.
type expectation struct {
	figures int
	values  []value
}

// value checks every match of pattern in a notebook's standard output: each submatch is
// parsed as a number and the numbers are passed to check.
type value struct {
	pattern *regexp.Regexp
	check   func(x []float64) error
}

// number is the regexp of a printed number.
const number = `([-+]?[0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)`

// re builds a pattern from a format where every %N stands for a number.
func re(format string) *regexp.Regexp {
	return regexp.MustCompile(regexp.MustCompile(`%N`).ReplaceAllLiteralString(format, number))
}

// within checks that x lies in [lo, hi].
func within(name string, x, lo, hi float64) error {
	if !(x >= lo && x <= hi) {
		return fmt.Errorf("%s = %g, want within [%g, %g]", name, x, lo, hi)
	}
	return nil
}

// ordered checks xs[0] ≤ xs[1] ≤ … and names the first violation.
func ordered(names ...string) func(x []float64) error {
	return func(x []float64) error {
		for i := 1; i < len(x); i++ {
			if x[i-1] > x[i] {
				return fmt.Errorf("%s = %g > %s = %g", names[i-1], x[i-1], names[i], x[i])
			}
		}
		return nil
	}
}

// ramanujan4 is the Ramanujan bound 2√(d−1) for degree 4.
var ramanujan4 = 2 * math.Sqrt(3)

// expectations holds, per notebook file, what its executed copy must show. The checks are
// the theory each notebook illustrates, with the slack of a finite sample.
var expectations = map[string]expectation{
	"01-quickstart.ipynb": {
		figures: 3,
		values: []value{
			// A certified 4-regular expander: eigenvalues within the Ramanujan bound plus the
			// default slack 0.1, each removed self loop costing one of the n·d/2 edges.
			{re(`n=%N d=%N edges=%N  λ2 = %N  λn = %N  bound 2√\(d−1\) = %N  accepted true after %N attempt\(s\), %N self loop`), func(x []float64) error {
				n, d, edges, l2, ln, bound, loops := x[0], x[1], x[2], x[3], x[4], x[5], x[7]
				if err := within("bound", bound, 2*math.Sqrt(d-1)-1e-3, 2*math.Sqrt(d-1)+1e-3); err != nil {
					return err
				}
				if err := within("edges", edges, n*d/2-loops, n*d/2-loops); err != nil {
					return err
				}
				if err := within("λ2", l2, 0, bound+0.1); err != nil {
					return err
				}
				return within("λn", ln, -bound-0.1, 0)
			}},
			// Lanczos (the certificate) against a dense eigendecomposition of the same graph.
			{re(`λ2 = %N  λn = %N .*\ndense check: second largest eigenvalue %N, smallest %N`), func(x []float64) error {
				if math.Abs(x[0]-x[2]) > 1e-3 || math.Abs(x[1]-x[3]) > 1e-3 {
					return fmt.Errorf("certificate (%g, %g) and dense eigenvalues (%g, %g) differ", x[0], x[1], x[2], x[3])
				}
				return nil
			}},
			// H of a 12-ring: 2n local edges, ≤ n·d expander edges (both directions, minus
			// self loops), 2n global edges for one virtual node.
			{re(`H: %N nodes \(%N real \+ %N virtual\), %N directed edges: local %N, expander %N, global %N`), func(x []float64) error {
				nReal, virtual, total, local, exp, global := x[1], x[2], x[3], x[4], x[5], x[6]
				if x[0] != nReal+virtual || virtual != 1 {
					return fmt.Errorf("nodes %g = %g real + %g virtual, want one virtual node", x[0], nReal, virtual)
				}
				if local != 2*nReal || global != 2*nReal*virtual || total != local+exp+global {
					return fmt.Errorf("edge counts do not add up")
				}
				if math.Mod(exp, 2) != 0 || exp > 4*nReal || exp < 4*nReal-8 {
					return fmt.Errorf("expander edges %g, want both directions of a 4-regular graph less a few loops", exp)
				}
				return nil
			}},
			// Training ran and the training loss went down; the metric is a valid rate.
			{re(`train loss %N -> %N, best val weighted-accuracy %N, test %N`), func(x []float64) error {
				if err := ordered("final train loss", "first train loss")([]float64{x[1], x[0]}); err != nil {
					return err
				}
				if err := within("val weighted accuracy", x[2], 0, 1); err != nil {
					return err
				}
				return within("test weighted accuracy", x[3], 0, 1)
			}},
		},
	},
	"02-expanders.ipynb": {
		figures: 2,
		values: []value{
			// Friedman: λ₂ and λₙ of random 4-regular graphs concentrate at ±2√3 as n grows;
			// every non-trivial eigenvalue is below the trivial one, d = 4.
			{re(`mean λ2 = %N  mean λn = %N  worst radius = %N`), func(x []float64) error {
				if err := within("mean λ2", x[0], ramanujan4-0.15, ramanujan4+0.05); err != nil {
					return err
				}
				if err := within("mean λn", x[1], -ramanujan4-0.05, -ramanujan4+0.15); err != nil {
					return err
				}
				return within("worst radius", x[2], ramanujan4-0.15, 4-1e-9)
			}},
			// With slack 0.1 nearly every draw of 2000 nodes is near-Ramanujan.
			{re(`near-Ramanujan %N/%N  self`), func(x []float64) error {
				return within("near-Ramanujan rate", x[0]/x[1], 0.8, 1)
			}},
			// A uniform permutation has one fixed point on average: d/2 = 2 self loops per
			// graph for Standard and Simple (40 graphs: standard error 0.22).
			{re(`standard .* self loops/graph = %N `), func(x []float64) error {
				return within("standard self loops", x[0], 1.2, 2.8)
			}},
			{re(`simple .* self loops/graph = %N `), func(x []float64) error {
				return within("simple self loops", x[0], 1.2, 2.8)
			}},
			// Hamiltonian cycles on n ≥ 3 nodes have no self loops.
			{re(`hamiltonian .* self loops/graph = %N `), func(x []float64) error {
				return within("hamiltonian self loops", x[0], 0, 0)
			}},
			// Strictly Ramanujan draws: a fraction bounded away from 0 and 1 (≈ 0.69 in the
			// limit); near-Ramanujan ones almost all.
			{re(`Ramanujan +%N/%N  near-Ramanujan \(slack 0.1\) +%N/%N`), func(x []float64) error {
				if err := within("Ramanujan rate", x[0]/x[1], 0.3, 0.97); err != nil {
					return err
				}
				return within("near-Ramanujan rate", x[2]/x[3], 0.8, 1)
			}},
			{re(`generate +%N ms`), func(x []float64) error {
				return within("generation time (ms)", x[0], 0, 10000)
			}},
			// The whole spectrum: trivial eigenvalue exactly d, almost nothing beyond the bound.
			{re(`largest eigenvalue %N, non-trivial eigenvalues beyond the bound \+ 0.1: %N of %N`), func(x []float64) error {
				if err := within("largest eigenvalue", x[0], 4-1e-6, 4+1e-6); err != nil {
					return err
				}
				return within("fraction beyond the bound", x[1]/x[2], 0, 0.01)
			}},
		},
	},
	"03-mixing-and-diameter.ipynb": {
		figures: 4,
		values: []value{
			// Lemma 4.2: the walk is within δ of uniform by the bound's step count.
			{re(`mixing: bound %N measured %N`), func(x []float64) error {
				if x[1] < 1 {
					return fmt.Errorf("measured mixing step %g: the walk did not mix", x[1])
				}
				return ordered("measured", "bound")([]float64{x[1], x[0]})
			}},
			// Moore radius ≤ diameter (or any eccentricity) ≤ Chung's bound.
			{re(`diameter: %N \(exact \w+\) moore %N chung %N`), func(x []float64) error {
				return ordered("moore", "diameter", "chung")([]float64{x[1], x[0], x[2]})
			}},
			// Theorem 4.3 made explicit: Tanner ≤ every ball ≤ Moore, radius by radius.
			{re(`\|B\(v,k\)\| from %N to %N  tanner %N  moore %N`), func(x []float64) error {
				return ordered("tanner", "smallest ball", "largest ball", "moore")([]float64{x[2], x[0], x[1], x[3]})
			}},
			{re(`growth factor 1\+c = %N: radii below tanner %N, above moore %N`), func(x []float64) error {
				if x[0] <= 1 {
					return fmt.Errorf("growth factor %g, want > 1", x[0])
				}
				if x[1] != 0 || x[2] != 0 {
					return fmt.Errorf("%g radii below Tanner's bound and %g above Moore's", x[1], x[2])
				}
				return nil
			}},
		},
	},
	"05-large-graphs.ipynb": {
		figures: 2,
		values: []value{
			{re(`planted-1000000: %N nodes, %N undirected edges, split %N/%N/%N`), func(x []float64) error {
				if x[0] != 1e6 || x[2]+x[3]+x[4] != x[0] {
					return fmt.Errorf("%g nodes split %g/%g/%g", x[0], x[2], x[3], x[4])
				}
				return within("undirected edges per node", x[1]/x[0], 2, 2.6)
			}},
			// Five balanced classes (chance 0.2); the features alone give about 0.6.
			{re(`10\^6 nodes, mini-batches: test accuracy %N, peak RSS %N MB`), func(x []float64) error {
				if err := within("test accuracy", x[0], 0.7, 1); err != nil {
					return err
				}
				return within("peak RSS (MB)", x[1], 100, 8000)
			}},
			{re(`2·10\^4 nodes, +\S+ +val accuracy %N test accuracy %N`), func(x []float64) error {
				return within("test accuracy", x[1], 0.7, 1)
			}},
			// Sampling costs little accuracy: mini-batches at most 3 points below
			// full-batch training (on this graph they are 2.5 points above).
			{re(`gap \(full-batch minus mini-batch\): %N points`), func(x []float64) error {
				return within("gap", x[0], -10, 3)
			}},
		},
	},
	"04-train-computers.ipynb": {
		figures: 3,
		values: []value{
			// The paper's figures for the largest component of Amazon Computers, and a
			// 60/20/20 split of its nodes.
			{re(`computers: %N nodes, %N undirected edges, %N features, %N classes, split %N/%N/%N`), func(x []float64) error {
				for i, want := range []float64{13381, 245778, 767, 10} {
					if x[i] != want {
						return fmt.Errorf("statistic %d = %g, want %g", i, x[i], want)
					}
				}
				if x[4]+x[5]+x[6] != x[0] {
					return fmt.Errorf("split %g+%g+%g does not cover %g nodes", x[4], x[5], x[6], x[0])
				}
				return within("training fraction", x[4]/x[0], 0.59, 0.61)
			}},
			// Every variant learns: the training loss falls and the test accuracy is far
			// above the 10% of a uniform guess.
			{re(`val accuracy %N test accuracy %N  train loss %N -> %N`), func(x []float64) error {
				if err := within("test accuracy", x[1], 0.3, 1); err != nil {
					return err
				}
				return ordered("final train loss", "first train loss")([]float64{x[3], x[2]})
			}},
		},
	},
}
