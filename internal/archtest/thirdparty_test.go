package archtest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"go/format"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// patchedModule is the module third_party/compute is a patched copy of.
const patchedModule = "github.com/gomlx/compute@v0.1.14"

// upstreamDir returns the module cache's copy of patchedModule, skipping the test when
// it cannot be had (offline without it in the cache), unless $CI is set.
func upstreamDir(t *testing.T) string {
	t.Helper()
	cmd := exec.Command("go", "mod", "download", "-json", patchedModule)
	cmd.Dir = repoRoot(t)
	out, err := cmd.Output()
	var info struct{ Dir, Error string }
	if err == nil {
		err = json.Unmarshal(out, &info)
	}
	if err != nil || info.Dir == "" {
		if os.Getenv("CI") != "" {
			t.Fatalf("go mod download %s: %v %s\n%s", patchedModule, err, info.Error, out)
		}
		t.Skipf("upstream %s not available: %v %s", patchedModule, err, info.Error)
	}
	return info.Dir
}

// repoRoot is the module root, two folders above this package.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// files lists the regular files under dir, by slash-separated relative path, each Go
// file as gofmt formats it (formatting is not a change to upstream).
func files(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if strings.HasSuffix(path, ".go") {
			if b, err = format.Source(b); err != nil {
				return fmt.Errorf("gofmt %s: %w", path, err)
			}
		}
		rel, _ := filepath.Rel(dir, path)
		out[filepath.ToSlash(rel)] = b
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// lineDiff returns the lines added and removed by a minimal line diff from a to b.
func lineDiff(a, b []byte) (added, removed int) {
	x, y := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	prev, cur := make([]int, len(y)+1), make([]int, len(y)+1)
	for i := range x {
		for j := range y {
			switch {
			case x[i] == y[j]:
				cur[j+1] = prev[j] + 1
			case prev[j+1] >= cur[j]:
				cur[j+1] = prev[j+1]
			default:
				cur[j+1] = cur[j]
			}
		}
		prev, cur = cur, prev
	}
	lcs := prev[len(y)]
	return len(y) - lcs, len(x) - lcs
}

// patchTable reads the "Files that differ from upstream" table of PATCHES.md: file →
// status and lines.
func patchTable(t *testing.T, patches []byte) map[string]string {
	t.Helper()
	row := regexp.MustCompile("^\\| `([^`]+)` \\| (new|changed) \\| ([^|]+) \\|$")
	table := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(patches))
	for sc.Scan() {
		if m := row.FindStringSubmatch(sc.Text()); m != nil {
			table[m[1]] = m[2] + " " + strings.TrimSpace(m[3])
		}
	}
	if len(table) == 0 {
		t.Fatal("PATCHES.md has no table of the files that differ from upstream")
	}
	return table
}

// TestThirdPartyComputeIsUpstreamPlusPatches holds third_party/compute to upstream
// v0.1.14: every upstream file is there, identical after gofmt unless PATCHES.md lists it
// as changed with the lines its diff adds and removes; every other file is listed as new
// with its line count.
func TestThirdPartyComputeIsUpstreamPlusPatches(t *testing.T) {
	up := files(t, upstreamDir(t))
	ours := files(t, filepath.Join(repoRoot(t), "third_party", "compute"))
	table := patchTable(t, ours["PATCHES.md"])
	seen := map[string]bool{}
	for path, want := range up {
		got, ok := ours[path]
		switch {
		case !ok:
			t.Errorf("upstream file %s is missing", path)
		case bytes.Equal(got, want):
			if table[path] != "" {
				t.Errorf("%s is listed in PATCHES.md (%s) but is upstream's (after gofmt)", path, table[path])
			}
		default:
			a, r := lineDiff(want, got)
			if line := fmt.Sprintf("changed +%d −%d", a, r); table[path] != line {
				t.Errorf("%s differs from upstream (%s); PATCHES.md says %q", path, line, table[path])
			}
		}
		seen[path] = true
	}
	for path, b := range ours {
		if seen[path] {
			continue
		}
		want := fmt.Sprintf("new %d", bytes.Count(b, []byte("\n")))
		if path == "PATCHES.md" {
			want = "new —"
		}
		if table[path] != want {
			t.Errorf("%s is not upstream's (%s); PATCHES.md says %q", path, want, table[path])
		}
	}
	for path := range table {
		if _, ok := ours[path]; !ok {
			t.Errorf("PATCHES.md lists %s, which is not in third_party/compute", path)
		}
	}
}
