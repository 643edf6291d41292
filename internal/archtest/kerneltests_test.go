package archtest

import (
	"bufio"
	"fmt"
	"go/build"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// goTestCommand is one `go test` command that a make recipe runs in third_party/compute.
type goTestCommand struct {
	env       map[string]string // the Makefile's exports, overridden by the command's own
	tags      []string          // -tags
	packages  []string          // package patterns relative to third_party/compute
	run, skip *regexp.Regexp    // -run and -skip; nil when absent
}

// valueFlags are the go test flags whose value may follow as the next word.
var valueFlags = map[string]bool{"-run": true, "-skip": true, "-timeout": true, "-exec": true, "-count": true,
	"-tags": true, "-p": true, "-parallel": true, "-cpu": true, "-bench": true, "-benchtime": true}

// shellWords splits a command line into words, honouring single and double quotes.
func shellWords(line string) []string {
	var words []string
	var cur strings.Builder
	inWord, quote := false, rune(0)
	for _, r := range line {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == ' ' || r == '\t':
			if inWord {
				words, inWord = append(words, cur.String()), false
				cur.Reset()
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words
}

// parseGoTest reads the words after `cd third_party/compute &&`: VAR=value assignments,
// $(GO) test, flags and packages.
func parseGoTest(words []string, exports map[string]string) (goTestCommand, error) {
	c := goTestCommand{env: map[string]string{}}
	for k, v := range exports {
		c.env[k] = v
	}
	for len(words) > 0 && strings.Contains(words[0], "=") && !strings.HasPrefix(words[0], "-") {
		k, v, _ := strings.Cut(words[0], "=")
		c.env[k], words = v, words[1:]
	}
	if len(words) < 2 || words[0] != "$(GO)" || words[1] != "test" {
		return c, fmt.Errorf("not a $(GO) test command: %q", strings.Join(words, " "))
	}
	for i := 2; i < len(words); i++ {
		w := words[i]
		if !strings.HasPrefix(w, "-") {
			c.packages = append(c.packages, w)
			continue
		}
		name, value, hasValue := strings.Cut(w, "=")
		if !hasValue && valueFlags[name] {
			if i+1 == len(words) {
				return c, fmt.Errorf("flag %s without its value", name)
			}
			i++
			value = words[i]
		}
		var err error
		switch name {
		case "-run":
			c.run, err = regexp.Compile(value)
		case "-skip":
			c.skip, err = regexp.Compile(value)
		case "-tags":
			c.tags = strings.Split(value, ",")
		}
		if err != nil {
			return c, fmt.Errorf("%s %q: %w", name, value, err)
		}
	}
	return c, nil
}

// recipeGoTests returns the Makefile's exported variables' values and the go test commands
// that target's recipe runs in third_party/compute.
func recipeGoTests(makefile, target string) ([]goTestCommand, error) {
	exports := map[string]string{}
	export := regexp.MustCompile(`^export (\w+) :?= ?(.*)$`)
	var cmds []goTestCommand
	in := false
	sc := bufio.NewScanner(strings.NewReader(makefile))
	for sc.Scan() {
		line := sc.Text()
		if m := export.FindStringSubmatch(line); m != nil {
			exports[m[1]] = strings.TrimSpace(m[2])
		}
		if !strings.HasPrefix(line, "\t") {
			in = strings.HasPrefix(line, target+":")
			continue
		}
		rest, ok := strings.CutPrefix(strings.TrimSpace(line), "cd third_party/compute && ")
		if !in || !ok {
			continue
		}
		c, err := parseGoTest(shellWords(rest), exports)
		if err != nil {
			return nil, fmt.Errorf("Makefile target %s: %w", target, err)
		}
		cmds = append(cmds, c)
	}
	if len(cmds) == 0 {
		return nil, fmt.Errorf("Makefile target %s runs no go test in third_party/compute", target)
	}
	return cmds, nil
}

// covers tells whether a package pattern (./dir/, ./dir or ./dir/...) names the package
// in dir (slash-separated, relative to the module root).
func covers(pattern, dir string) bool {
	p := path.Clean(strings.TrimSuffix(pattern, "..."))
	if p == "." {
		return strings.HasSuffix(pattern, "...") || dir == "."
	}
	p = strings.TrimPrefix(p, "./")
	if strings.HasSuffix(pattern, "...") {
		return dir == p || strings.HasPrefix(dir, p+"/")
	}
	return dir == p
}

// builds tells whether the test file name in dir is compiled under the command's
// GOOS/GOARCH (linux/amd64 unless set), GOEXPERIMENT and -tags.
func (c goTestCommand) builds(dir, name string) (bool, error) {
	ctx := build.Default
	ctx.GOOS, ctx.GOARCH = "linux", "amd64"
	if v := c.env["GOOS"]; v != "" {
		ctx.GOOS = v
	}
	if v := c.env["GOARCH"]; v != "" {
		ctx.GOARCH = v
	}
	ctx.CgoEnabled = c.env["CGO_ENABLED"] == "1"
	ctx.BuildTags = c.tags
	ctx.ToolTags = nil
	for _, e := range strings.Split(c.env["GOEXPERIMENT"], ",") {
		if e != "" {
			ctx.ToolTags = append(ctx.ToolTags, "goexperiment."+e)
		}
	}
	return ctx.MatchFile(dir, name)
}

// runs tells whether the command runs test name of the file name in dir (relative to
// third_party/compute, whose absolute path is root).
func (c goTestCommand) runs(root, dir, name, test string) (bool, error) {
	if !slices.ContainsFunc(c.packages, func(p string) bool { return covers(p, dir) }) {
		return false, nil
	}
	if ok, err := c.builds(filepath.Join(root, filepath.FromSlash(dir)), name); !ok || err != nil {
		return false, err
	}
	return (c.run == nil || c.run.MatchString(test)) && (c.skip == nil || !c.skip.MatchString(test)), nil
}

// missedTests returns the tests (file: name) of the given test files of third_party/compute
// (at root) that none of the commands runs.
func missedTests(root string, testFiles []string, cmds []goTestCommand) ([]string, error) {
	def := regexp.MustCompile(`(?m)^func (Test\w*)\(`)
	var missed []string
	for _, file := range testFiles {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(file)))
		if err != nil {
			return nil, err
		}
		dir, name := path.Split(file)
		dir = path.Clean(dir)
		for _, m := range def.FindAllStringSubmatch(string(b), -1) {
			run := false
			for _, c := range cmds {
				ok, err := c.runs(root, dir, name, m[1])
				if err != nil {
					return nil, fmt.Errorf("%s: %w", file, err)
				}
				run = run || ok
			}
			if !run {
				missed = append(missed, file+": "+m[1])
			}
		}
	}
	return missed, nil
}

// kernelTestFiles returns the test files that PATCHES.md lists as gexph's (new or
// changed), sorted.
func kernelTestFiles(t *testing.T, root string) []string {
	t.Helper()
	patches, err := os.ReadFile(filepath.Join(root, "PATCHES.md"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for f := range patchTable(t, patches) {
		if strings.HasSuffix(f, "_test.go") {
			out = append(out, f)
		}
	}
	if len(out) == 0 {
		t.Fatal("PATCHES.md lists no test file")
	}
	slices.Sort(out)
	return out
}

// TestMakeRunsEveryKernelTest holds `make test` (on amd64) and `make test-arm64` to
// running every test function of every test file that third_party/compute/PATCHES.md
// lists (the patched kernels' tests): each must be in a package that one of the target's
// `go test` commands in third_party/compute names, built under that command's GOARCH,
// GOEXPERIMENT and tags, and matched by its -run (and not its -skip). It also holds the
// check itself to the former -run filter of `make test`, which left two tests out.
func TestMakeRunsEveryKernelTest(t *testing.T) {
	repo := repoRoot(t)
	root := filepath.Join(repo, "third_party", "compute")
	makefile, err := os.ReadFile(filepath.Join(repo, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	files := kernelTestFiles(t, root)
	for _, target := range []string{"test", "test-arm64"} {
		cmds, err := recipeGoTests(string(makefile), target)
		if err != nil {
			t.Fatal(err)
		}
		missed, err := missedTests(root, files, cmds)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range missed {
			t.Errorf("make %s does not run %s", target, m)
		}
	}

	former := "export GOEXPERIMENT := simd\ntest: vet\n\tcd third_party/compute && $(GO) test -count=1 -run " +
		"'BufferCache|Rows|GatherMulScatter|Gathered|TallGram|ProductSum|PlanBlocks|BlockBroadcast|RNGBitGenerator|" +
		"ConvertUint32|TallDense|Identities|AffineRows|ThresholdProducts|CentredSquare|LogisticSlopes|SegmentSoftmax' " +
		"./internal/gobackend/ ./internal/gobackend/ops/\n"
	cmds, err := recipeGoTests(former, "test")
	if err != nil {
		t.Fatal(err)
	}
	missed, err := missedTests(root, files, cmds)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"internal/gobackend/buffercache_test.go: TestBufferBucketLenWastesLittleOnLargeBuffers",
		"internal/gobackend/ops/spmm_test.go: TestLargeTablesAreNotFused"}
	for _, w := range want { // Tests added since are missed too.
		if !slices.Contains(missed, w) {
			t.Errorf("the former filter misses %q, want among them %q", missed, w)
		}
	}
}
