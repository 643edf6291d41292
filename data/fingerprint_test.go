package data

import "testing"

// The fingerprint is a function of the content: equal for the same data built twice or
// renamed, different after any one value of the edges, features, labels or split changes.
func TestFingerprintChangesWithTheContentOnly(t *testing.T) {
	build := func() *Dataset {
		ds, err := GeneratePlantedPartition(DefaultPlantedPartitionOptions(300, 5))
		if err != nil {
			t.Fatal(err)
		}
		return ds
	}
	ref := build().Fingerprint()
	if len(ref) != 32 {
		t.Fatalf("fingerprint %q: want 32 hexadecimal digits", ref)
	}
	same := build()
	same.Name = "renamed"
	if got := same.Fingerprint(); got != ref {
		t.Errorf("same content: fingerprint %s, want %s", got, ref)
	}
	for name, change := range map[string]func(d *Dataset){
		"edge":        func(d *Dataset) { d.Graphs[0].Dst[3]++ },
		"feature":     func(d *Dataset) { d.Graphs[0].Node.Dense[7] += 1e-6 },
		"label":       func(d *Dataset) { d.Graphs[0].NodeLabels[2] ^= 1 },
		"split":       func(d *Dataset) { d.Split.Test = d.Split.Test[1:] },
		"split order": func(d *Dataset) { d.Split.Val[0], d.Split.Val[1] = d.Split.Val[1], d.Split.Val[0] },
		"classes":     func(d *Dataset) { d.NumClasses++ },
	} {
		d := build()
		change(d)
		if got := d.Fingerprint(); got == ref {
			t.Errorf("%s changed: fingerprint unchanged (%s)", name, got)
		}
	}
}
