package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReproduceBadFlags(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want []string // substrings of stderr
	}{
		{[]string{"reproduce", "-suite", "scaling"}, []string{`"scaling"`, `"transductive"`, `"inductive-budget"`, `"inductive"`}},
		{[]string{"reproduce"}, []string{"-suite is required", "transductive", "inductive-budget"}},
		{[]string{"reproduce", "-suite", "transductive", "-seeds", "0"}, []string{"seeds = 0"}},
		{[]string{"reproduce", "-suite", "transductive", "extra"}, []string{`unexpected argument "extra"`}},
		{[]string{"reproduce", "-nope"}, []string{"-nope"}},
	} {
		out := filepath.Join(dir, "out")
		code, _, errOut := runCLI(t, append(c.args, "-out", out)...)
		if code == 0 {
			t.Errorf("%v: exit 0, want an error", c.args)
		}
		for _, w := range c.want {
			if !strings.Contains(errOut, w) {
				t.Errorf("%v: stderr %q lacks %q", c.args, errOut, w)
			}
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%v: created %s before failing", c.args, out)
		}
	}
}

func TestCommandLineQuotesArguments(t *testing.T) {
	got := commandLine("gexph reproduce", []string{"-suite", "transductive", "-out", "my runs", "-results", ""})
	want := `gexph reproduce -suite transductive -out "my runs" -results ""`
	if got != want {
		t.Errorf("commandLine = %s, want %s", got, want)
	}
}
