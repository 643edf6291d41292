package suite

import (
	"slices"
	"strings"
	"testing"

	"github.com/gexph/gexph/data"
	"github.com/gexph/gexph/gexph"
)

// TestEveryNameRefersToSomethingThatExists checks the names that tie the registry,
// the presets and the suites together: every suite run names a known data set (or a
// generated planted:N graph) and a preset; every preset validates and is named after a
// known data set, a variant of one (-ref, -tuned, -plus, -plus-exphormer) or a generic
// use; every data set
// known by name has a preset of its name, but for a task gexph has no head for.
func TestEveryNameRefersToSomethingThatExists(t *testing.T) {
	var known []string
	for _, d := range data.KnownDatasets() {
		known = append(known, d.Name)
	}
	presets := gexph.PresetNames()
	for _, name := range SuiteNames() {
		runs, err := Suite(name, 2)
		if err != nil {
			t.Fatalf("suite %s: %v", name, err)
		}
		for _, r := range runs {
			if !slices.Contains(known, r.Dataset) && !strings.HasPrefix(r.Dataset, "planted:") {
				t.Errorf("suite %s, run %s: data set %q is not known by name", name, r.Name, r.Dataset)
			}
			if !slices.Contains(presets, r.Preset) {
				t.Errorf("suite %s, run %s: preset %q does not exist", name, r.Name, r.Preset)
			}
		}
	}
	generic := []string{"node", "graph", "scaling", "demo", "large"}
	for _, p := range presets {
		cfg, err := gexph.Preset(p)
		if err != nil {
			t.Errorf("preset %s: %v", p, err)
			continue
		}
		if err := cfg.Validate(); err != nil {
			t.Errorf("preset %s does not validate: %v", p, err)
		}
		base := p
		for _, suffix := range []string{"-ref", "-tuned", "-plus-exphormer", "-plus"} {
			base = strings.TrimSuffix(base, suffix)
		}
		if !slices.Contains(known, base) && !slices.Contains(generic, p) {
			t.Errorf("preset %s names no data set known by name and no generic use", p)
		}
	}
	noTask := []string{"pcqm-contact"} // link ranking: gexph has no link-prediction head
	for _, d := range known {
		if !slices.Contains(presets, d) && !slices.Contains(noTask, d) {
			t.Errorf("data set %s has no preset of its name", d)
		}
	}
}
