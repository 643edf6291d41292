package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gexph/gexph/internal/shareddata"
)

// mirror serves the shared data root on 127.0.0.1 and counts the requests.
func mirror(t *testing.T) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var n atomic.Int64
	files := http.FileServer(http.Dir(shareddata.Path(t, ".")))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		files.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

// TestDataFetchCommand fetches cora with `data -fetch` from a local mirror (the output
// names the file, the URL, the verified checksum and the policy for unpinned files),
// then loads it; an unpinned data set is refused without a request, naming -trust-new.
func TestDataFetchCommand(t *testing.T) {
	srv, requests := mirror(t)
	root := t.TempDir()
	code, out, errOut := runCLI(t, "data", "-fetch", "cora", "-mirror", srv.URL, "-data-dir", root)
	if code != 0 {
		t.Fatalf("fetch cora: exit %d: %s", code, errOut)
	}
	for _, want := range []string{"gnn-benchmark/cora.npz from " + srv.URL, "068e22d90c3849b4057dfb05851741428992af058efcd4e7ebb4186f3d581de2 verified", "are refused (give -trust-new"} {
		if !strings.Contains(out, want) {
			t.Errorf("fetch output lacks %q:\n%s", want, out)
		}
	}
	if code, _, errOut := runCLI(t, "data", "-dataset", "cora", "-data-dir", root, "-no-cache"); code != 0 {
		t.Fatalf("loading the fetched cora: exit %d: %s", code, errOut)
	}
	before := requests.Load()
	code, _, errOut = runCLI(t, "data", "-fetch", "photo", "-mirror", srv.URL, "-data-dir", root)
	if code == 0 || !strings.Contains(errOut, "-trust-new") || requests.Load() != before {
		t.Errorf("fetch photo (unpinned): exit %d, %d requests, stderr %q; want a refusal naming -trust-new and no request", code, requests.Load()-before, errOut)
	}
}

// TestDataFetchMissingFlagOptsIn loads citeseer from an empty data root: refused
// without -fetch-missing (naming the fetch command), fetched from the mirror with it.
func TestDataFetchMissingFlagOptsIn(t *testing.T) {
	srv, requests := mirror(t)
	root := t.TempDir()
	t.Setenv("GEXPH_FETCH", "")
	code, _, errOut := runCLI(t, "data", "-dataset", "citeseer", "-data-dir", root, "-no-cache", "-mirror", srv.URL)
	if code == 0 || !strings.Contains(errOut, "gexph data -fetch citeseer") || requests.Load() != 0 {
		t.Fatalf("without -fetch-missing: exit %d after %d requests: %s", code, requests.Load(), errOut)
	}
	code, out, errOut := runCLI(t, "data", "-dataset", "citeseer", "-data-dir", root, "-no-cache", "-mirror", srv.URL, "-fetch-missing")
	if code != 0 || !strings.Contains(out, "citeseer") || requests.Load() != 1 {
		t.Fatalf("with -fetch-missing: exit %d after %d requests: %s", code, requests.Load(), errOut)
	}
}
