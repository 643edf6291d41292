package spectral

import (
	"math"
	"math/rand/v2"
	"testing"
)

// laplacian returns the dense Laplacian of the undirected simple graph given by the edges.
func laplacian(n int, src, dst []int32, normalized bool) []float64 {
	adj := make([]float64, n*n)
	for k := range src {
		if src[k] != dst[k] {
			adj[int(src[k])*n+int(dst[k])], adj[int(dst[k])*n+int(src[k])] = 1, 1
		}
	}
	deg := make([]float64, n)
	for i := range n {
		for j := range n {
			deg[i] += adj[i*n+j]
		}
	}
	lap := make([]float64, n*n)
	for i := range n {
		for j := range n {
			switch {
			case normalized && i == j:
				lap[i*n+j] = 1
			case normalized && adj[i*n+j] != 0:
				lap[i*n+j] = -1 / math.Sqrt(deg[i]*deg[j])
			case i == j:
				lap[i*n+j] = deg[i]
			default:
				lap[i*n+j] = -adj[i*n+j]
			}
		}
	}
	return lap
}

func cycleEdges(n int) (src, dst []int32) {
	for i := range n {
		src, dst = append(src, int32(i)), append(dst, int32((i+1)%n))
	}
	return src, dst
}

func TestComputeLapPEEigenpairs(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 1))
	// Two components (a random graph on 0..8 and a triangle), one isolated node, with
	// duplicates, reversed duplicates and a self loop.
	var src, dst []int32
	for i := range int32(8) { // A path keeps 0..8 connected.
		src, dst = append(src, i), append(dst, i+1)
	}
	for range 12 {
		src, dst = append(src, int32(rng.IntN(9))), append(dst, int32(rng.IntN(9)))
	}
	src, dst = append(src, 9, 10, 11, 10, 5), append(dst, 10, 11, 9, 9, 5)
	const n, k = 13, 6
	for _, opts := range []LapPEOptions{{}, {Normalized: true}, {IncludeTrivial: true}, {Normalized: true, IncludeTrivial: true}} {
		pe, err := ComputeLapPE(n, src, dst, k, opts)
		if err != nil {
			t.Fatal(err)
		}
		lap := laplacian(n, src, dst, opts.Normalized)
		if pe.K != k || pe.NumValid != k {
			t.Fatalf("%+v: K=%d NumValid=%d, want %d", opts, pe.K, pe.NumValid, k)
		}
		for c := range k {
			lambda := float64(pe.Vals[c])
			if c > 0 && pe.Vals[c] < pe.Vals[c-1] {
				t.Errorf("%+v: eigenvalues not ascending: %v", opts, pe.Vals)
			}
			if !opts.IncludeTrivial && lambda < 1e-6 {
				t.Errorf("%+v: trivial eigenvalue %g kept", opts, lambda)
			}
			norm := 0.0
			for i := range n {
				lv := 0.0
				for j := range n {
					lv += lap[i*n+j] * float64(pe.Vecs[j*k+c])
				}
				if r := math.Abs(lv - lambda*float64(pe.Vecs[i*k+c])); r > 1e-5 {
					t.Errorf("%+v: (L v − λ v)_%d = %g for eigenpair %d", opts, i, r, c)
				}
				norm += float64(pe.Vecs[i*k+c]) * float64(pe.Vecs[i*k+c])
			}
			if math.Abs(norm-1) > 1e-5 {
				t.Errorf("%+v: eigenvector %d has squared norm %g", opts, c, norm)
			}
		}
		// The components (2, and the isolated node for the combinatorial Laplacian) give
		// zero eigenvalues, kept only with IncludeTrivial.
		zeros := 3
		if opts.Normalized {
			zeros = 2
		}
		if opts.IncludeTrivial {
			for c := range zeros {
				if pe.Vals[c] > 1e-6 {
					t.Errorf("%+v: eigenvalue %d is %g, want 0", opts, c, pe.Vals[c])
				}
			}
			if pe.Vals[zeros] < 1e-6 {
				t.Errorf("%+v: eigenvalue %d is 0, want %d zero eigenvalues", opts, zeros, zeros)
			}
		}
	}
}

func TestComputeLapPECycleSpectrum(t *testing.T) {
	const n = 8
	src, dst := cycleEdges(n)
	pe, err := ComputeLapPE(n, src, dst, 10, LapPEOptions{IncludeTrivial: true})
	if err != nil {
		t.Fatal(err)
	}
	// 2 − 2cos(2πj/n), j = 0..n−1, sorted; two padding slots.
	want := []float64{0, 0.5857864, 0.5857864, 2, 2, 3.4142136, 3.4142136, 4, 0, 0}
	for c, w := range want {
		if math.Abs(float64(pe.Vals[c])-w) > 1e-5 {
			t.Errorf("eigenvalue %d: %g, want %g", c, pe.Vals[c], w)
		}
	}
	if pe.NumValid != n {
		t.Errorf("NumValid = %d, want %d", pe.NumValid, n)
	}
	for i := range n {
		for c := n; c < 10; c++ {
			if pe.Vecs[i*10+c] != 0 {
				t.Fatalf("padding slot %d of node %d is %g", c, i, pe.Vecs[i*10+c])
			}
		}
	}
}

func TestComputeRWSEKnownValues(t *testing.T) {
	const steps = 6
	// Cycle C_6: return probabilities of a simple random walk on a 6-cycle.
	src, dst := cycleEdges(6)
	src, dst = append(src, dst...), append(dst, src...)
	got, err := ComputeRWSE(6, src, dst, steps)
	if err != nil {
		t.Fatal(err)
	}
	// Closed walks of length k on C_6 divided by 2^k: k=2: 2/4, k=4: 6/16, k=6: (20+2)/64.
	cycleWant := []float64{0, 0.5, 0, 0.375, 0, 22.0 / 64}
	// Complete graph K_5: P = (J − I)/4, P^k_ii = (1 + 4(−1/4)^k)/5.
	var ks, kd []int32
	for i := range int32(5) {
		for j := range int32(5) {
			if i != j {
				ks, kd = append(ks, i), append(kd, j)
			}
		}
	}
	gotK, err := ComputeRWSE(5, ks, kd, steps)
	if err != nil {
		t.Fatal(err)
	}
	for s := range steps {
		k := float64(s + 1)
		completeWant := (1 + 4*math.Pow(-0.25, k)) / 5
		for i := range 5 {
			if math.Abs(float64(gotK[i*steps+s])-completeWant) > 1e-6 {
				t.Errorf("K_5 node %d step %d: %g, want %g", i, s+1, gotK[i*steps+s], completeWant)
			}
		}
		for i := range 6 {
			if math.Abs(float64(got[i*steps+s])-cycleWant[s]) > 1e-6 {
				t.Errorf("C_6 node %d step %d: %g, want %g", i, s+1, got[i*steps+s], cycleWant[s])
			}
		}
	}
	// A directed path: no node returns; the sink has no out-edges and gives zeros.
	gotP, err := ComputeRWSE(3, []int32{0, 1}, []int32{1, 2}, 3)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range gotP {
		if v != 0 {
			t.Errorf("directed path: entry %d is %g, want 0", i, v)
		}
	}
}

func TestHostPEErrors(t *testing.T) {
	src, dst := []int32{0, 1}, []int32{1, 2}
	cases := map[string]func() error{
		"lap negative n":   func() error { _, err := ComputeLapPE(-1, nil, nil, 2, LapPEOptions{}); return err },
		"lap length":       func() error { _, err := ComputeLapPE(3, src, dst[:1], 2, LapPEOptions{}); return err },
		"lap out of range": func() error { _, err := ComputeLapPE(2, src, dst, 2, LapPEOptions{}); return err },
		"lap negative idx": func() error { _, err := ComputeLapPE(3, []int32{-1}, []int32{0}, 2, LapPEOptions{}); return err },
		"lap k":            func() error { _, err := ComputeLapPE(3, src, dst, 0, LapPEOptions{}); return err },
		"lap too large":    func() error { _, err := ComputeLapPE(MaxLapPENodes+1, nil, nil, 2, LapPEOptions{}); return err },
		"rwse length":      func() error { _, err := ComputeRWSE(3, src, dst[:1], 2); return err },
		"rwse out of range": func() error {
			_, err := ComputeRWSE(2, src, dst, 2)
			return err
		},
		"rwse steps": func() error { _, err := ComputeRWSE(3, src, dst, 0); return err },
		"rwse neg n": func() error { _, err := ComputeRWSE(-2, nil, nil, 2); return err },
	}
	for name, fn := range cases {
		if err := fn(); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
