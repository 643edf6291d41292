package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/gexph/gexph/expander"
	"github.com/gexph/gexph/internal/sysinfo"
	"github.com/gexph/gexph/spectral"
)

// expanderReport is the -json output of `gexph expander`.
type expanderReport struct {
	expander.Certificate
	Edges   int     `json:"edges"`
	Seconds float64 `json:"seconds"`
	Out     string  `json:"out,omitempty"`
}

func runExpander(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("expander", "-n N -d D [-algo standard|simple|hamiltonian] [-seed S] [-tol T] [-out FILE] [-json]", stderr)
	n := fs.Int("n", 1000, "number of nodes")
	d := fs.Int("d", 6, "degree (even)")
	algoName := fs.String("algo", "standard", "random process: standard, simple or hamiltonian")
	seed := fs.Uint64("seed", 1, "random seed")
	tol := fs.Float64("tol", expander.DefaultTol, "near-Ramanujan slack above 2√(d−1)")
	attempts := fs.Int("attempts", expander.DefaultMaxAttempts, "draws at most before keeping the best")
	dedup := fs.Bool("dedup", false, "drop parallel edges (default: keep the multigraph)")
	noCertify := fs.Bool("no-certify", false, "skip the eigenvalues (one draw, no certificate)")
	out := fs.String("out", "", "write the edges to `FILE` (two columns, as 'gexph spectral -edges' reads)")
	asJSON := fs.Bool("json", false, "print one JSON object")
	if err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	algo, err := expander.ParseAlgorithm(*algoName)
	if err != nil {
		return err
	}
	opts := expander.DefaultOptions(*n, *d, *seed)
	opts.Algo, opts.Tol, opts.MaxAttempts = algo, *tol, *attempts
	opts.DedupParallel, opts.Certify = *dedup, !*noCertify

	if err := checkExpanderMemory(opts, sysinfo.MemoryBudget()); err != nil {
		return err
	}
	start := time.Now()
	ex, err := expander.Generate(opts)
	if err != nil {
		return err
	}
	seconds := time.Since(start).Seconds()
	if *out != "" {
		if err := spectral.SaveEdgeList(*out, ex.Graph()); err != nil {
			return err
		}
	}
	rep := expanderReport{Certificate: ex.Certificate, Edges: ex.NumEdges(), Seconds: seconds, Out: *out}
	if *asJSON {
		return writeJSON(stdout, rep)
	}
	c := &rep.Certificate
	fmt.Fprintf(stdout, "expander  n=%d d=%d algo=%s seed=%d\n", c.N, c.D, c.Algo, c.Seed)
	fmt.Fprintf(stdout, "edges     %d (self loops removed %d, parallel edges %d%s)\n",
		rep.Edges, c.SelfLoopsRemoved, c.ParallelEdges, map[bool]string{true: ", dropped", false: ""}[c.ParallelDropped])
	switch {
	case c.Fallback:
		fmt.Fprintf(stdout, "graph     complete graph K_%d (n ≤ d+1)\n", c.N)
	case !c.Certified:
		fmt.Fprintln(stdout, "spectrum  not certified (-no-certify)")
	default:
		verdict := "near-Ramanujan"
		switch {
		case !c.Connected():
			verdict = "NOT accepted: every draw was disconnected (best of the draws kept)"
		case !c.Accepted:
			verdict = "NOT near-Ramanujan (best of the draws kept)"
		}
		fmt.Fprintf(stdout, "graph     %s, degrees %d..%d\n", connectivity(c.Components), c.DegreeMin, c.DegreeMax)
		fmt.Fprintf(stdout, "lambda1   %.6f\nlambda2   %.6f\nlambda_n  %.6f\nbound     2√(d−1) = %.6f (+ tol %.3g)\nepsilon   %.6f\nverdict   %s after %d attempt(s)\n",
			c.Lambda1, c.Lambda2, c.LambdaMin, c.Bound, c.Tol, c.Epsilon, verdict, c.Attempts)
	}
	fmt.Fprintf(stdout, "seconds   %.3f\n", seconds)
	if *out != "" {
		fmt.Fprintf(stdout, "wrote     %s\n", *out)
	}
	return nil
}

// connectivity describes a component count.
func connectivity(components int) string {
	if components == 1 {
		return "connected"
	}
	return fmt.Sprintf("DISCONNECTED (%d components)", components)
}

// openInput opens path for reading; "-" means standard input.
func openInput(path string) (io.ReadCloser, error) {
	if path == "-" {
		return io.NopCloser(os.Stdin), nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	return f, nil
}

// checkExpanderMemory refuses, before anything is allocated, an expander whose
// estimate (expander.EstimateBytes, the complete-graph fallback included) exceeds the
// memory budget, naming -n and -d.
func checkExpanderMemory(opts expander.Options, budget sysinfo.Budget) error {
	return budget.Refuse(fmt.Sprintf("expander -n %d -d %d", opts.N, opts.D), float64(expander.EstimateBytes(opts)))
}
