package expander

import (
	"math/bits"
	"math/rand/v2"
)

// golden is 2⁶⁴/φ, the Weyl increment of splitmix64.
const golden = 0x9E3779B97F4A7C15

// pcgTag separates the second PCG state word from the first.
const pcgTag = 0xD1B54A32D192ED03

// attemptDomain keeps the seeds of rejection attempts apart from the per-permutation
// streams, which use small stream numbers.
const attemptDomain = 1 << 62

// mix64 is the splitmix64 finaliser: a bijection on uint64 with full avalanche.
func mix64(z uint64) uint64 {
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	return z ^ z>>31
}

// DeriveSeed returns the seed of sub-stream stream of seed:
// mix64(mix64(seed) + (stream+1)·0x9E3779B97F4A7C15), where mix64 is the splitmix64
// finaliser. It is used for the permutations of one draw (stream j for permutation j),
// for rejection attempts (see Options) and for the per-graph expanders of a batch
// (see InteractionOptions.Seed).
func DeriveSeed(seed, stream uint64) uint64 {
	return mix64(mix64(seed) + (stream+1)*golden)
}

// attemptSeed is the seed of rejection attempt a: the caller's seed for a = 0, else
// DeriveSeed(seed, 2⁶² + a).
func attemptSeed(seed uint64, a int) uint64 {
	if a == 0 {
		return seed
	}
	return DeriveSeed(seed, attemptDomain+uint64(a))
}

// newRNG returns a PCG generator whose 128-bit state is derived from seed.
func newRNG(seed uint64) *rand.PCG {
	return rand.NewPCG(seed, mix64(seed^pcgTag))
}

// uniform returns a uniform integer in [0, bound) for bound ≥ 1 (Lemire's multiply and
// reject method, one 64-bit draw in all but a 2⁻³² fraction of calls).
func uniform(r *rand.PCG, bound uint64) uint64 {
	hi, lo := bits.Mul64(r.Uint64(), bound)
	if lo < bound {
		thresh := -bound % bound
		for lo < thresh {
			hi, lo = bits.Mul64(r.Uint64(), bound)
		}
	}
	return hi
}

// shuffle permutes a uniformly at random (Fisher–Yates).
func shuffle(r *rand.PCG, a []int32) {
	for i := len(a) - 1; i > 0; i-- {
		j := uniform(r, uint64(i+1))
		a[i], a[j] = a[j], a[i]
	}
}
