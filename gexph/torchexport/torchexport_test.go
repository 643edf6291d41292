package torchexport

import (
	"reflect"
	"testing"

	"github.com/gexph/gexph/gexph"
)

// TestSnakeCaseNamesEveryInputDistinctly checks the batch export's names of the Inputs
// fields: acronyms kept whole, and no two fields named alike.
func TestSnakeCaseNamesEveryInputDistinctly(t *testing.T) {
	for in, want := range map[string]string{"NodeMask": "node_mask", "HSrc": "h_src", "PEVec": "pe_vec",
		"RWSE": "rwse", "LayerHSrc": "layer_h_src", "XCat": "x_cat", "BBDst": "bb_dst", "InDegree": "in_degree", "X": "x"} {
		if got := snakeCase(in); got != want {
			t.Errorf("snakeCase(%q) = %q, want %q", in, got, want)
		}
	}
	in := gexph.Inputs[gexph.Array]{}
	v := reflect.ValueOf(&in).Elem()
	for i := range v.NumField() {
		v.Field(i).Set(reflect.ValueOf(gexph.Array{Dims: []int{0}}))
	}
	if got, want := len(byName(&in)), v.NumField(); got != want {
		t.Errorf("%d distinct names for %d input fields", got, want)
	}
}
