package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/gexph/gexph/internal/sysinfo"
	"github.com/gexph/gexph/spectral"
)

// spectralReport is the -json output of `gexph spectral`.
type spectralReport struct {
	spectral.Summary
	Converged bool    `json:"converged"`
	Seconds   float64 `json:"seconds"`
}

func runSpectral(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("spectral", "-edges FILE|- [-delta D] [-lazy] [-seed S] [-json]", stderr)
	edges := fs.String("edges", "", "edge list: two integer columns per line, '#' comments; '-' reads standard input")
	delta := fs.Float64("delta", spectral.DefaultMixingDelta, "L1 distance to stationarity that counts as mixed")
	lazy := fs.Bool("lazy", false, "measure the lazy walk ½I + ½P (needed for bipartite graphs)")
	seed := fs.Uint64("seed", 1, "seed of start vectors and sampled nodes")
	asJSON := fs.Bool("json", false, "print one JSON object")
	if err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	if *edges == "" {
		return fmt.Errorf("-edges is required (a file, or - for standard input)")
	}
	if !(*delta > 0 && *delta < 2) {
		return fmt.Errorf("-delta %g: want an L1 distance between 0 and 2, both excluded", *delta)
	}
	in, err := openInput(*edges)
	if err != nil {
		return err
	}
	name := *edges
	if name == "-" {
		name = "<stdin>"
	}
	g, err := spectral.ReadEdgeListLimit(in, name, int(min(sysinfo.MemoryBudget().Bytes/edgeListBytesPerEdge, spectral.MaxEdges)))
	in.Close()
	if err != nil {
		return err
	}
	start := time.Now()
	sum, err := spectral.Analyze(g, spectral.AnalyzeOptions{Delta: *delta, Lazy: *lazy, Seed: *seed})
	converged := !errors.Is(err, spectral.ErrNotConverged)
	if err != nil && converged {
		return err
	}
	rep := spectralReport{Summary: *sum, Converged: converged, Seconds: time.Since(start).Seconds()}
	if *asJSON {
		return writeJSON(stdout, rep)
	}
	s := &rep.Summary
	fmt.Fprintf(stdout, "graph            %s: n=%d, %d edges, degree %d..%d\n", name, s.N, s.Edges, s.DegreeMin, s.DegreeMax)
	note := ""
	if !converged {
		note = " (Lanczos did not converge: estimates)"
	}
	fmt.Fprintf(stdout, "components       %s\n", describeComponents(s))
	fmt.Fprintf(stdout, "lambda1          %.6f%s\nlambda2          %.6f%s\nlambda_min       %.6f\nepsilon          %.6f\n",
		s.Lambda1, note, s.Lambda2, repeatedTop(s), s.LambdaMin, s.Epsilon)
	fmt.Fprintf(stdout, "mixing bound     %s steps (δ=%g)\nmixing measured  %s steps\n",
		orUndefined(s.MixingBound, "%.1f"), *delta, orUndefined(float64(s.MixingMeasured), "%.0f"))
	switch {
	case s.Diameter < 0:
		fmt.Fprintln(stdout, "diameter         ∞ (disconnected)")
	case s.DiameterExact:
		fmt.Fprintf(stdout, "diameter         %d\n", s.Diameter)
	default:
		fmt.Fprintf(stdout, "diameter         ≥ %d (estimated: double sweep and sampled BFS)\n", s.Diameter)
	}
	fmt.Fprintf(stdout, "seconds          %.3f\n", rep.Seconds)
	return nil
}

// describeComponents says whether the graph is connected; a disconnected graph has no
// spectral gap, whatever λ₂ is.
func describeComponents(s *spectral.Summary) string {
	if s.Components <= 1 {
		return fmt.Sprint(s.Components, " (connected)")
	}
	return fmt.Sprintf("%d (DISCONNECTED: no spectral gap, ε = 1; λ₂ describes the components, not an expander)", s.Components)
}

// repeatedTop notes a top eigenvalue of multiplicity two or more.
func repeatedTop(s *spectral.Summary) string {
	if s.N >= 2 && math.Abs(s.Lambda1-s.Lambda2) <= spectral.ExpanderTol {
		return " (= λ₁: the top eigenvalue is repeated)"
	}
	return ""
}

// orUndefined formats v, or says "undefined" for the −1 that marks a missing number.
func orUndefined(v float64, format string) string {
	if v < 0 {
		return "undefined"
	}
	return fmt.Sprintf(format, v)
}

// edgeListBytesPerEdge is the memory an edge of an edge list takes while it is read and
// analysed: its two int32 ends, twice over while the slices grow, and both directions
// of the graph's adjacency with the Lanczos work on top.
const edgeListBytesPerEdge = 40
