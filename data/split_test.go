package data

import (
	"reflect"
	"slices"
	"testing"
)

func TestRandomSplit(t *testing.T) {
	for _, n := range []int{0, 1, 7, 13381} {
		s, err := RandomSplit(n, 0.6, 0.2, 42)
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Train) != n*6/10 || len(s.Val) != n*2/10 {
			t.Errorf("n=%d: sizes %d/%d/%d", n, len(s.Train), len(s.Val), len(s.Test))
		}
		// The parts are sorted and together hold every index exactly once.
		all := slices.Concat(s.Train, s.Val, s.Test)
		for _, p := range [][]int{s.Train, s.Val, s.Test} {
			if !slices.IsSorted(p) {
				t.Errorf("n=%d: part not sorted", n)
			}
		}
		slices.Sort(all)
		for i, v := range all {
			if v != i {
				t.Fatalf("n=%d: indices are not a partition of 0..n-1", n)
			}
		}
		again, _ := RandomSplit(n, 0.6, 0.2, 42)
		if !reflect.DeepEqual(s, again) {
			t.Errorf("n=%d: same seed, different split", n)
		}
	}
	a, _ := RandomSplit(1000, 0.6, 0.2, 1)
	b, _ := RandomSplit(1000, 0.6, 0.2, 2)
	if reflect.DeepEqual(a.Train, b.Train) {
		t.Error("seeds 1 and 2 gave the same split")
	}
	for _, bad := range [][2]float64{{-0.1, 0.2}, {0.9, 0.2}, {0.5, -1}} {
		if _, err := RandomSplit(10, bad[0], bad[1], 0); err == nil {
			t.Errorf("fractions %v accepted", bad)
		}
	}
	if _, err := RandomSplit(-1, 0.5, 0.5, 0); err == nil {
		t.Error("negative size accepted")
	}
}
