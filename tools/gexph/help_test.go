package main

import (
	"encoding/json"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/gexph/gexph/suite"
)

// helpOf returns what `gexph name -h` prints (standard output and error together) and
// fails the test when it does not exit 0.
func helpOf(t *testing.T, name string) string {
	t.Helper()
	code, out, errOut := runCLI(t, name, "-h")
	if code != 0 {
		t.Fatalf("%s -h: exit %d\n%s%s", name, code, out, errOut)
	}
	return out + errOut
}

// flagLines returns the flag names that a help text lists ("  -name [ARG]" lines).
func flagLines(help string) map[string]string {
	flags := map[string]string{}
	for _, l := range strings.Split(help, "\n") {
		if strings.HasPrefix(l, "  -") {
			name, _, _ := strings.Cut(strings.TrimPrefix(l, "  -"), " ")
			flags[name] = l
		}
	}
	return flags
}

func TestEveryCommandsHelpShowsExamplesUsingItsFlags(t *testing.T) {
	for name := range commands() {
		help := helpOf(t, name)
		_, section, ok := strings.Cut(help, "\nExamples:\n")
		if !ok {
			t.Errorf("%s -h has no Examples section:\n%s", name, help)
			continue
		}
		flags := flagLines(help)
		n := 0
		for _, l := range strings.Split(section, "\n") {
			_, cmdline, ok := strings.Cut(l, "gexph "+name+" ")
			if !strings.HasPrefix(l, "  gexph ") || !ok && !strings.HasSuffix(l, "gexph "+name) {
				continue
			}
			n++
			cmdline, _, _ = strings.Cut(cmdline, "&&")
			for _, tok := range strings.Fields(cmdline) {
				if tok == "<" || tok == ">" {
					break
				}
				if len(tok) > 1 && tok[0] == '-' && flags[strings.TrimLeft(tok, "-")] == "" {
					t.Errorf("%s -h: example %q uses %s, which the flags do not list", name, strings.TrimSpace(l), tok)
				}
			}
		}
		if n < 2 {
			t.Errorf("%s -h: %d examples of gexph %s, want 2 or 3:\n%s", name, n, name, section)
		}
	}
}

// The flag package takes a back-quoted word of a usage text for the flag's argument
// name: "(as `gexph config` prints)" would list "-config gexph config".
func TestNoFlagArgumentNameIsABackQuotedPhrase(t *testing.T) {
	for name := range commands() {
		for flag, line := range flagLines(helpOf(t, name)) {
			if f := strings.Fields(line); len(f) > 2 {
				t.Errorf("%s -h lists -%s as %q: a back-quoted phrase in its usage text", name, flag, strings.TrimSpace(line))
			}
		}
	}
}

func TestREPLHelpListsEcho(t *testing.T) {
	help := helpOf(t, "repl")
	if !strings.Contains(help, "\nFlags:\n  -echo\n") {
		t.Errorf("repl -h does not list -echo under Flags:\n%s", help)
	}
}

func TestVersionNamesGoVersionExperimentAndBackends(t *testing.T) {
	code, out, errOut := runCLI(t, "version", "-json")
	if code != 0 {
		t.Fatalf("version -json: exit %d: %s", code, errOut)
	}
	var v versionInfo
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("version -json: %v\n%s", err, out)
	}
	if v.Version == "" || !strings.HasPrefix(v.GoVersion, "go") || !strings.Contains(v.GOEXPERIMENT, "simd") || len(v.Backends) == 0 || v.Backends[0] == "" {
		t.Errorf("version: %+v, want a version, go version, GOEXPERIMENT with simd (the tests build with it) and the backends", v)
	}
	hasGo := false
	for _, b := range v.Backends {
		hasGo = hasGo || b == "go"
	}
	if !hasGo {
		t.Errorf("backends %v lack the pure-Go backend", v.Backends)
	}
	code, out, _ = runCLI(t, "version")
	if v.Machine != suite.MachineDescription() {
		t.Errorf("version: machine %q, want the suites' description %q", v.Machine, suite.MachineDescription())
	}
	for _, want := range []string{"gexph ", "commit ", "go ", "GOEXPERIMENT ", "backends ", "machine "} {
		if code != 0 || !strings.Contains(out, "\n"+want) && !strings.HasPrefix(out, want) {
			t.Errorf("version (exit %d) lacks a line %q:\n%s", code, want, out)
		}
	}
}

func TestVersionReadsCommitAndExperimentFromTheBuild(t *testing.T) {
	bi := &debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc123"}, {Key: "vcs.modified", Value: "true"},
		{Key: "vcs.time", Value: "2026-11-26T12:00:00Z"}, {Key: "GOEXPERIMENT", Value: "simd"}}}
	v := buildVersion(bi)
	if v.Commit != "abc123" || !v.Modified || v.CommitTime != "2026-11-26T12:00:00Z" || v.GOEXPERIMENT != "simd" {
		t.Errorf("buildVersion: %+v", v)
	}
	if v := buildVersion(&debug.BuildInfo{}); len(v.Warnings) == 0 {
		t.Errorf("a build without GOEXPERIMENT=simd: no warning in %+v", v)
	}
}
