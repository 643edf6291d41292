package logfile

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// OpenAppend keeps a file that starts with the content (cut after it), replaces one that
// does not, creates a missing one, and appends after the content in every case.
func TestOpenAppendStartsAfterTheContent(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ name, before string }{
		{"missing", ""},
		{"same", "head\n1\n"},
		{"longer", "head\n1\n2 (a killed run's)\n"},
		{"other", "another head\n1\n"},
	} {
		path := filepath.Join(dir, tc.name)
		if tc.before != "" {
			if err := os.WriteFile(path, []byte(tc.before), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		f, err := OpenAppend(path, []byte("head\n1\n"))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.Write([]byte("2\n")); err != nil {
			t.Fatal(err)
		}
		f.Close()
		if b, _ := os.ReadFile(path); string(b) != "head\n1\n2\n" {
			t.Errorf("%s: %q, want the content and the appended line", tc.name, b)
		}
	}
}

func TestCSVRowFollowsTheJSONNames(t *testing.T) {
	type row struct {
		A int      `json:"a"`
		B *float64 `json:"b,omitempty"`
		C bool     `json:"c"`
	}
	half := 0.5
	if got, want := CSVColumns[row](), []string{"a", "b", "c"}; !reflect.DeepEqual(got, want) {
		t.Errorf("columns %q, want %q", got, want)
	}
	if got, want := CSVRow(row{A: 3, B: &half, C: true}), []string{"3", "0.5", "true"}; !reflect.DeepEqual(got, want) {
		t.Errorf("row %q, want %q", got, want)
	}
	if got, want := CSVRow(row{}), []string{"0", "", "false"}; !reflect.DeepEqual(got, want) {
		t.Errorf("row %q, want %q", got, want)
	}
}
