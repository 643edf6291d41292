package expander

import "sync"

// Draws remembers the expander each graph was given, so that a graph batched again (a data
// set's graphs are, every epoch) gets the same edges without being certified again: of the
// up to MaxAttempts draws a certified graph costs, only the kept one is drawn again, from
// the attempt seed its certificate records. Batches built through a Draws hold the same
// edges and certificates as batches built without one.
//
// It keeps a graph's options and certificate (200 bytes) per graph. The zero value is
// ready to use, and a Draws is safe for concurrent use.
type Draws struct {
	mu   sync.Mutex
	kept map[Options]Certificate
}

// BuildBatch is the package's BuildBatch, remembering each certified expander in d and
// redrawing the ones it holds. A nil d remembers nothing.
func (d *Draws) BuildBatch(graphs []InputGraph, opts InteractionOptions) (*Interaction, error) {
	return buildBatch(graphs, opts, d)
}

// Len returns how many certified expanders d holds.
func (d *Draws) Len() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.kept)
}

// lookup returns the certificate kept for opts.
func (d *Draws) lookup(opts *Options) (Certificate, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	c, ok := d.kept[*opts]
	return c, ok
}

// keep records the certificate of the draw kept for opts.
func (d *Draws) keep(opts *Options, c Certificate) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.kept == nil {
		d.kept = make(map[Options]Certificate)
	}
	d.kept[*opts] = c
}

// generateWith is generate with the draws remembered in d (nil: none): a graph d holds
// is drawn once from its kept attempt seed, the same edges generate kept, and comes
// with the same certificate.
func (gen *generator) generateWith(d *Draws, opts *Options) (*draw, Certificate, error) {
	if d == nil || !opts.Certify {
		return gen.generate(opts, false)
	}
	if c, ok := d.lookup(opts); ok {
		gen.drawOnce(opts, c.AttemptSeed, &gen.a, false)
		return &gen.a, c, nil
	}
	best, c, err := gen.generate(opts, false)
	if err != nil {
		return nil, c, err
	}
	d.keep(opts, c)
	return best, c, nil
}
