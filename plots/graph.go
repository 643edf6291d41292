package plots

import (
	"fmt"
	"image/color"
	"math"
	"strconv"

	"github.com/gexph/gexph/expander"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Interaction graph drawing limits.
const (
	// MaxDrawNodes bounds the node count of InteractionGraph: beyond a few
	// hundred nodes a drawing shows little but its colours.
	MaxDrawNodes = MaxLayoutNodes
	// maxNodeLabels is the largest node count whose drawing labels every node.
	maxNodeLabels = 40
)

// Kinds of interaction edges InteractionGraph tells apart; the two directions of
// global edges are one kind.
const (
	kindLocal = iota
	kindExpander
	kindGlobal
	numKinds
)

// edgeKind maps an expander.EdgeType to its kind, or −1.
func edgeKind(t uint8) int {
	switch expander.EdgeType(t) {
	case expander.EdgeLocal:
		return kindLocal
	case expander.EdgeExpander:
		return kindExpander
	case expander.EdgeGlobalIn, expander.EdgeGlobalOut:
		return kindGlobal
	}
	return -1
}

// edgeKindStyle returns the legend name and line style of an edge kind: local
// blue, expander orange, global thin dotted green (they are the most numerous).
func edgeKindStyle(kind int) (string, draw.LineStyle) {
	switch kind {
	case kindLocal:
		return "local", lineStyle(rgb(0x1f77b4), 1.8, nil)
	case kindExpander:
		return "expander", lineStyle(rgb(0xff7f0e), 1.4, nil)
	default:
		return "global", lineStyle(rgb(0x2ca02c), 0.8, dotted())
	}
}

// InteractionGraph draws the interaction graph h of a small graph or batch: real
// nodes as circles, virtual nodes as larger squares, and the edges coloured by
// kind — local (input graph) blue, expander orange, global (to and from virtual
// nodes) dotted green — each pair of nodes drawn once per kind whatever its
// directions and multiplicity. pos holds a position per node of h (real nodes,
// then virtual ones), as from ForceLayout or SpectralLayout of h.Src, h.Dst; nil
// computes ForceLayout(h.NumNodes, h.Src, h.Dst, 0, 1). Nodes are labelled with
// their ids when there are at most 40. The legend counts the directed edges of
// each kind.
func InteractionGraph(h *expander.Interaction, pos [][2]float64) (*plot.Plot, error) {
	if h == nil {
		return nil, fmt.Errorf("plots: interaction graph: nil graph")
	}
	n := h.NumNodes
	if n < 1 || n > MaxDrawNodes {
		return nil, fmt.Errorf("plots: interaction graph: %d nodes is outside [1, %d]", n, MaxDrawNodes)
	}
	if h.NumReal < 0 || h.NumReal > n {
		return nil, fmt.Errorf("plots: interaction graph: %d real nodes of %d", h.NumReal, n)
	}
	if len(h.Type) != len(h.Src) {
		return nil, fmt.Errorf("plots: interaction graph: %d edge types for %d edges", len(h.Type), len(h.Src))
	}
	if err := checkEdges("interaction graph", n, h.Src, h.Dst); err != nil {
		return nil, err
	}
	if pos == nil {
		var err error
		if pos, err = ForceLayout(n, h.Src, h.Dst, 0, 1); err != nil {
			return nil, err
		}
	}
	if len(pos) != n {
		return nil, fmt.Errorf("plots: interaction graph: %d positions for %d nodes", len(pos), n)
	}
	for i, p := range pos {
		if !isFinite(p[0]) || !isFinite(p[1]) {
			return nil, fmt.Errorf("plots: interaction graph: node %d is at (%v, %v)", i, p[0], p[1])
		}
	}

	// One segment per node pair and kind.
	var segments [numKinds][][2]int32
	var counts [numKinds]int
	seen := make(map[[3]int32]bool, len(h.Src))
	for e := range h.Src {
		kind := edgeKind(h.Type[e])
		if kind < 0 {
			return nil, fmt.Errorf("plots: interaction graph: edge %d has type %d", e, h.Type[e])
		}
		counts[kind]++
		u, v := min(h.Src[e], h.Dst[e]), max(h.Src[e], h.Dst[e])
		key := [3]int32{u, v, int32(kind)}
		if u == v || seen[key] {
			continue
		}
		seen[key] = true
		segments[kind] = append(segments[kind], [2]int32{u, v})
	}

	numVirtual := n - h.NumReal
	title := fmt.Sprintf("Interaction graph (%d nodes", h.NumReal)
	if h.NumGraphs > 1 {
		title = fmt.Sprintf("Interaction graph of %d graphs (%d nodes", h.NumGraphs, h.NumReal)
	}
	if numVirtual > 0 {
		title += fmt.Sprintf(" + %d virtual", numVirtual)
	}
	p := newPlot(title+")", "", "")
	p.HideAxes()
	var edgeSets [numKinds]*edgeSet
	// Global edges first: they are the most numerous and should not hide the rest.
	for _, kind := range [...]int{kindGlobal, kindExpander, kindLocal} {
		if counts[kind] == 0 {
			continue
		}
		_, style := edgeKindStyle(kind)
		es := &edgeSet{pos: pos, pairs: segments[kind], style: style}
		p.Add(es)
		edgeSets[kind] = es
	}
	for kind, es := range edgeSets {
		if es != nil {
			name, _ := edgeKindStyle(kind)
			addLegend(p, fmt.Sprintf("%s edges (%d)", name, counts[kind]), es)
		}
	}

	radius := vg.Points(5)
	switch {
	case n > 300:
		radius = vg.Points(2)
	case n > 100:
		radius = vg.Points(3)
	case n > maxNodeLabels:
		radius = vg.Points(4)
	}
	realXYs, virtual := make(plotter.XYs, h.NumReal), make(plotter.XYs, numVirtual)
	for i := range n {
		xy := plotter.XY{X: pos[i][0], Y: pos[i][1]}
		if i < h.NumReal {
			realXYs[i] = xy
		} else {
			virtual[i-h.NumReal] = xy
		}
	}
	realNodes := &nodeMarks{xys: realXYs, radius: radius, fill: rgb(0xdbe9f6), line: rgb(0x08306b)}
	virtualNodes := &nodeMarks{xys: virtual, radius: radius * 1.6, square: true,
		fill: rgb(0x9467bd), line: rgb(0x3f007d)}
	p.Add(realNodes, virtualNodes)
	addLegend(p, fmt.Sprintf("nodes (%d)", h.NumReal), realNodes)
	if numVirtual > 0 {
		addLegend(p, fmt.Sprintf("virtual nodes (%d)", numVirtual), virtualNodes)
	}
	if n <= maxNodeLabels {
		labels := make([]string, n)
		for i := range labels {
			labels[i] = strconv.Itoa(i)
		}
		xys := append(append(plotter.XYs{}, realXYs...), virtual...)
		l, err := plotter.NewLabels(plotter.XYLabels{XYs: xys, Labels: labels})
		if err != nil {
			return nil, fmt.Errorf("plots: interaction graph: node labels: %w", err)
		}
		for i := range l.TextStyle {
			l.TextStyle[i].Font.Size = vg.Points(7)
			l.TextStyle[i].XAlign, l.TextStyle[i].YAlign = draw.XCenter, draw.YCenter
			if i >= h.NumReal {
				l.TextStyle[i].Color = color.White
			}
		}
		p.Add(l)
	}
	// The drawing spans the positions, with room for the marks at the edges.
	lo, hi := [2]float64{math.Inf(1), math.Inf(1)}, [2]float64{math.Inf(-1), math.Inf(-1)}
	for _, q := range pos {
		for a := range 2 {
			lo[a], hi[a] = min(lo[a], q[a]), max(hi[a], q[a])
		}
	}
	span := max(hi[0]-lo[0], hi[1]-lo[1], 1e-9)
	p.X.Min, p.X.Max = lo[0]-0.06*span, hi[0]+0.06*span
	p.Y.Min, p.Y.Max = lo[1]-0.06*span, hi[1]+0.06*span
	p.X.Padding, p.Y.Padding = radius*2, radius*2
	m := &marks{}
	m.pointsOf(realXYs)
	m.pointsOf(virtual)
	for _, es := range edgeSets {
		if es == nil {
			continue
		}
		for _, pr := range es.pairs {
			a, b := pos[pr[0]], pos[pr[1]]
			m.line(plotter.XYs{{X: a[0], Y: a[1]}, {X: b[0], Y: b[1]}})
		}
	}
	finishLegend(p, m)
	return p, nil
}

// edgeSet draws straight segments between node positions.
type edgeSet struct {
	pos   [][2]float64
	pairs [][2]int32
	style draw.LineStyle
}

// Plot implements plot.Plotter.
func (e *edgeSet) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for _, pr := range e.pairs {
		a, b := e.pos[pr[0]], e.pos[pr[1]]
		c.StrokeLine2(e.style, trX(a[0]), trY(a[1]), trX(b[0]), trY(b[1]))
	}
}

// Thumbnail implements plot.Thumbnailer.
func (e *edgeSet) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	c.StrokeLine2(e.style, c.Min.X, y, c.Max.X, y)
}

// nodeMarks draws filled, outlined circles or squares.
type nodeMarks struct {
	xys        plotter.XYs
	radius     vg.Length
	square     bool
	fill, line color.Color
}

// Plot implements plot.Plotter.
func (m *nodeMarks) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for _, xy := range m.xys {
		m.draw(&c, vg.Point{X: trX(xy.X), Y: trY(xy.Y)})
	}
}

// Thumbnail implements plot.Thumbnailer.
func (m *nodeMarks) Thumbnail(c *draw.Canvas) {
	m.draw(c, c.Center())
}

// draw draws one mark centred at pt.
func (m *nodeMarks) draw(c *draw.Canvas, pt vg.Point) {
	var fill, outline draw.GlyphDrawer = draw.CircleGlyph{}, draw.RingGlyph{}
	if m.square {
		fill, outline = draw.BoxGlyph{}, draw.SquareGlyph{}
	}
	c.DrawGlyphNoClip(draw.GlyphStyle{Color: m.fill, Radius: m.radius, Shape: fill}, pt)
	c.DrawGlyphNoClip(draw.GlyphStyle{Color: m.line, Radius: m.radius, Shape: outline}, pt)
}
