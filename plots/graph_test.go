package plots

import (
	"fmt"
	"math"
	"testing"

	"github.com/gexph/gexph/expander"
)

// testInteraction builds the interaction graph of a 12-cycle (both directions
// stored) with a 4-regular expander and one virtual node.
func testInteraction(t *testing.T) *expander.Interaction {
	t.Helper()
	const n = 12
	var src, dst []int32
	for i := range n {
		j := (i + 1) % n
		src, dst = append(src, int32(i), int32(j)), append(dst, int32(j), int32(i))
	}
	opts := expander.DefaultInteractionOptions()
	opts.Local, opts.Expander, opts.Global = true, true, true
	opts.ExpanderDegree, opts.VirtualNodes = 4, 1
	h, err := expander.BuildInteraction(expander.InputGraph{NumNodes: n, Src: src, Dst: dst}, opts)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestInteractionGraph(t *testing.T) {
	h := testInteraction(t)
	counts := h.CountByType()
	for _, layout := range []string{"default", "spectral"} {
		var pos [][2]float64
		if layout == "spectral" {
			var err error
			if pos, err = SpectralLayout(h.NumNodes, h.Src, h.Dst); err != nil {
				t.Fatal(err)
			}
		}
		p, err := InteractionGraph(h, pos)
		if err != nil {
			t.Fatalf("%s layout: %v", layout, err)
		}
		s := renderPNG(t, p, 5, 5, 100)
		requireColour(t, s, "local edges", 0x1f77b4, 300)
		requireColour(t, s, "expander edges", 0xff7f0e, 300)
		requireColour(t, s, "global edges", 0x2ca02c, 50)
		requireColour(t, s, "virtual node", 0x9467bd, 50)
		texts := renderSVG(t, p)
		requireText(t, texts, fmt.Sprintf("local edges (%d)", counts[expander.EdgeLocal]))
		requireText(t, texts, fmt.Sprintf("expander edges (%d)", counts[expander.EdgeExpander]))
		requireText(t, texts, fmt.Sprintf("global edges (%d)", counts[expander.EdgeGlobalIn]+counts[expander.EdgeGlobalOut]))
		requireText(t, texts, "virtual nodes (1)")
		requireText(t, texts, fmt.Sprint(h.NumNodes-1)) // the virtual node's label
	}
	// Without virtual nodes or expander edges, those colours are absent.
	opts := expander.DefaultInteractionOptions()
	opts.Expander, opts.Global = false, false
	src, dst := pathEdges(6)
	plain, err := expander.BuildInteraction(expander.InputGraph{NumNodes: 6, Src: src, Dst: dst}, opts)
	if err != nil {
		t.Fatal(err)
	}
	p, err := InteractionGraph(plain, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := renderPNG(t, p, 4, 4, 100)
	requireColour(t, s, "local edges", 0x1f77b4, 100)
	if n := countNear(s.img, 0xff7f0e, 12) + countNear(s.img, 0x9467bd, 12); n > 0 {
		t.Errorf("graph without expander and virtual nodes has %d pixels of their colours", n)
	}
}

func TestInteractionGraphErrors(t *testing.T) {
	good := testInteraction(t)
	clone := func(edit func(h *expander.Interaction)) *expander.Interaction {
		h := *good
		h.Src = append([]int32(nil), good.Src...)
		h.Type = append([]uint8(nil), good.Type...)
		edit(&h)
		return &h
	}
	pos := make([][2]float64, good.NumNodes)
	nanPos := make([][2]float64, good.NumNodes)
	nanPos[3][1] = math.NaN()
	for name, c := range map[string]struct {
		h   *expander.Interaction
		pos [][2]float64
	}{
		"nil graph":      {nil, nil},
		"no nodes":       {clone(func(h *expander.Interaction) { h.NumNodes = 0 }), nil},
		"too many nodes": {clone(func(h *expander.Interaction) { h.NumNodes = MaxDrawNodes + 1 }), nil},
		"real > nodes":   {clone(func(h *expander.Interaction) { h.NumReal = h.NumNodes + 1 }), nil},
		"types missing":  {clone(func(h *expander.Interaction) { h.Type = h.Type[:1] }), nil},
		"bad type":       {clone(func(h *expander.Interaction) { h.Type[0] = 9 }), nil},
		"edge off graph": {clone(func(h *expander.Interaction) { h.Src[0] = int32(h.NumNodes) }), nil},
		"short pos":      {good, pos[:3]},
		"NaN pos":        {good, nanPos},
	} {
		if _, err := InteractionGraph(c.h, c.pos); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
