package gexph

import "testing"

// TestSnakeCaseNamesEveryInputDistinctly checks the batch export's names of the Inputs
// fields: acronyms kept whole, and no two fields named alike.
func TestSnakeCaseNamesEveryInputDistinctly(t *testing.T) {
	for in, want := range map[string]string{"NodeMask": "node_mask", "HSrc": "h_src", "PEVec": "pe_vec",
		"RWSE": "rwse", "LayerHSrc": "layer_h_src", "XCat": "x_cat", "BBDst": "bb_dst", "InDegree": "in_degree", "X": "x"} {
		if got := snakeCase(in); got != want {
			t.Errorf("snakeCase(%q) = %q, want %q", in, got, want)
		}
	}
	in := Inputs[Array]{}
	for _, f := range in.fields() {
		*f = Array{Dims: []int{0}}
	}
	if got, want := len(in.byName()), len(in.fields()); got != want {
		t.Errorf("%d distinct names for %d input fields", got, want)
	}
}
