package data

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// RandomSplit splits the indices 0..n-1 at random into training, validation and test
// parts: ⌊trainFrac·n⌋ training and ⌊valFrac·n⌋ validation indices, the rest for testing.
// A part whose share is positive but rounds down to no index gets one, taken from the
// largest part, when n is at least the number of parts with a positive share (for a
// 60/20/20 split this changes only n = 3 and 4, split 1/1/1 and 2/1/1 instead of 1/0/2
// and 2/0/2), so that no required part is empty when n allows. Each part is sorted. The
// same n, fractions and seed always give the same split.
func RandomSplit(n int, trainFrac, valFrac float64, seed uint64) (Split, error) {
	if n < 0 {
		return Split{}, fmt.Errorf("random split: negative size %d", n)
	}
	if !(trainFrac >= 0 && valFrac >= 0 && trainFrac+valFrac <= 1) {
		return Split{}, fmt.Errorf("random split: fractions train %v and val %v must be ≥ 0 with sum ≤ 1", trainFrac, valFrac)
	}
	nTrain := int(math.Floor(trainFrac * float64(n)))
	nVal := min(int(math.Floor(valFrac*float64(n))), n-nTrain)
	counts := [3]int{nTrain, nVal, n - nTrain - nVal}
	positive := [3]bool{trainFrac > 0, valFrac > 0, trainFrac+valFrac < 1}
	need := 0
	for _, p := range positive {
		if p {
			need++
		}
	}
	if n >= need {
		for p := range counts {
			if !positive[p] || counts[p] > 0 {
				continue
			}
			donor := 0
			for q := range counts {
				if counts[q] >= counts[donor] {
					donor = q // the largest part, ties to the later one
				}
			}
			if counts[donor] >= 2 {
				counts[donor]--
				counts[p]++
			}
		}
	}
	nTrain, nVal = counts[0], counts[1]
	perm := newRNG(seed, streamSplit).Perm(n)
	s := Split{
		Train: perm[:nTrain:nTrain],
		Val:   perm[nTrain : nTrain+nVal : nTrain+nVal],
		Test:  perm[nTrain+nVal:],
	}
	slices.Sort(s.Train)
	slices.Sort(s.Val)
	slices.Sort(s.Test)
	return s, nil
}

// rangeSplit returns the split of nTrain+nVal+nTest consecutive indices, in this order.
func rangeSplit(nTrain, nVal, nTest int) Split {
	seq := func(from, to int) []int {
		s := make([]int, to-from)
		for i := range s {
			s[i] = from + i
		}
		return s
	}
	return Split{
		Train: seq(0, nTrain),
		Val:   seq(nTrain, nTrain+nVal),
		Test:  seq(nTrain+nVal, nTrain+nVal+nTest),
	}
}

// Random streams: each use of randomness in the package draws from its own stream so that
// changing one never shifts another.
const (
	streamSplit   = 1 << 56
	streamPATTERN = 2 << 56
	streamCLUSTER = 3 << 56
)

// newRNG returns a PCG generator determined by seed and stream. Both are mixed by a
// bijection, so distinct (seed, stream) pairs give distinct generator states.
func newRNG(seed, stream uint64) *rand.Rand {
	return rand.New(rand.NewPCG(mix64(seed^0x9e3779b97f4a7c15), mix64(stream+0x632be59bd9b4e019)))
}

// mix64 is the SplitMix64 finalizer, a bijection on uint64 with good avalanche.
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// LabelledSplit is RandomSplit over the nodes whose label is not Unlabelled: the split
// of a semi-supervised graph, whose unlabelled nodes belong to no split. With every
// node labelled it equals RandomSplit(len(labels), …).
func LabelledSplit(labels []int32, trainFrac, valFrac float64, seed uint64) (Split, error) {
	var labelled []int
	for v, y := range labels {
		if y != Unlabelled {
			labelled = append(labelled, v)
		}
	}
	split, err := RandomSplit(len(labelled), trainFrac, valFrac, seed)
	if err != nil || len(labelled) == len(labels) {
		return split, err
	}
	for _, part := range []*[]int{&split.Train, &split.Val, &split.Test} {
		for i, k := range *part {
			(*part)[i] = labelled[k]
		}
	}
	return split, nil
}
