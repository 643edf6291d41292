package data

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gexph/gexph/internal/shareddata"
)

// testServer is a local HTTP server on 127.0.0.1 serving the shared data root as a
// mirror, plus the handlers a test adds; it counts requests and records Range headers.
type testServer struct {
	*httptest.Server
	mu       sync.Mutex
	requests int
	ranges   []string
	paths    []string
}

func newTestServer(t *testing.T, shared string, extra map[string]http.HandlerFunc) *testServer {
	t.Helper()
	s := &testServer{}
	mux := http.NewServeMux()
	mux.Handle("/", http.FileServer(http.Dir(shared)))
	for p, h := range extra {
		mux.HandleFunc(p, h)
	}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.requests++
		s.ranges = append(s.ranges, r.Header.Get("Range"))
		s.paths = append(s.paths, r.URL.Path)
		s.mu.Unlock()
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

// seen returns the number of requests so far, their paths and Range headers.
func (s *testServer) seen() (int, []string, []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests, slices.Clone(s.paths), slices.Clone(s.ranges)
}

// count returns the number of requests so far.
func (s *testServer) count() int {
	n, _, _ := s.seen()
	return n
}

// fetchOpts returns FetchOptions bounded in time for a test.
func (s *testServer) fetchOpts(progress io.Writer) FetchOptions {
	return FetchOptions{Client: &http.Client{Timeout: 20 * time.Second}, Progress: progress}
}

func sha256Hex(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// TestFetchFromMirrorPlacesVerifiedFilesInTheSharedLayout fetches cora and
// peptides-func from a local mirror of the shared data into an empty root: the files are
// byte-identical to the shared ones, at the same paths, no .part is left, the progress
// line reaches 100 %, and cora then loads from the new root; a second fetch makes no
// request.
func TestFetchFromMirrorPlacesVerifiedFilesInTheSharedLayout(t *testing.T) {
	shared := shareddata.Path(t, ".")
	srv := newTestServer(t, shared, nil)
	root := t.TempDir()
	var progress bytes.Buffer
	fo := srv.fetchOpts(&progress)
	fo.Mirror = srv.URL
	for _, name := range []string{"cora", "peptides-func"} {
		res, err := Fetch(name, LoadOptions{DataDir: root}, fo)
		if err != nil {
			t.Fatalf("fetch %s: %v", name, err)
		}
		for _, r := range res {
			want, err := os.ReadFile(filepath.Join(shared, r.File.Path))
			if err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(filepath.Join(root, r.File.Path))
			if err != nil {
				t.Fatalf("%s not placed: %v", r.File.Path, err)
			}
			if !bytes.Equal(got, want) || r.SHA256 != sha256Hex(want) || r.From != srv.URL+"/"+r.File.Path {
				t.Errorf("%s: %d bytes placed (from %s, sha %s), want the shared %d bytes", r.File.Path, len(got), r.From, r.SHA256, len(want))
			}
			if _, err := os.Stat(filepath.Join(root, r.File.Path) + ".part"); err == nil {
				t.Errorf("%s.part left behind", r.File.Path)
			}
		}
	}
	if !strings.Contains(progress.String(), "100%") {
		t.Errorf("progress output lacks 100%%: %q", progress.String())
	}
	ds, err := Load("cora", LoadOptions{DataDir: root, NoCache: true})
	if err != nil || ds.Stats().Nodes == 0 {
		t.Fatalf("loading the fetched cora: %v", err)
	}
	before := srv.count()
	if _, err := Fetch("cora", LoadOptions{DataDir: root}, fo); err != nil || srv.count() != before {
		t.Errorf("second fetch: err %v, %d new requests, want none", err, srv.count()-before)
	}
}

// TestLoadFetchesOnlyWhenOptedIn loads cora from an empty root: without
// LoadOptions.Fetch the error names the searched path and the fetch command and no
// request is made; with it, cora is fetched from the mirror and loads.
func TestLoadFetchesOnlyWhenOptedIn(t *testing.T) {
	srv := newTestServer(t, shareddata.Path(t, "."), nil)
	root := t.TempDir()
	_, err := Load("cora", LoadOptions{DataDir: root, NoCache: true})
	if err == nil || !strings.Contains(err.Error(), filepath.Join(root, "gnn-benchmark", "cora.npz")) ||
		!strings.Contains(err.Error(), "gexph data -fetch cora") {
		t.Fatalf("load without fetch: %v, want not found naming the path and the fetch command", err)
	}
	if srv.count() != 0 {
		t.Fatalf("load without opting in made %d requests", srv.count())
	}
	fo := srv.fetchOpts(nil)
	fo.Mirror = srv.URL
	ds, err := Load("cora", LoadOptions{DataDir: root, NoCache: true, Fetch: &fo})
	if err != nil || ds.Stats().Nodes == 0 || srv.count() != 1 {
		t.Fatalf("load with fetch: %v after %d requests", err, srv.count())
	}
}

// coraFile is cora.npz served at urlPath of srv with the shared checksum and size.
func coraFile(t *testing.T, srv *testServer, urlPath string) (RemoteFile, []byte) {
	t.Helper()
	body, err := os.ReadFile(shareddata.Path(t, "gnn-benchmark/cora.npz"))
	if err != nil {
		t.Fatal(err)
	}
	return RemoteFile{Path: "gnn-benchmark/cora.npz", URL: srv.URL + urlPath, SHA256: sha256Hex(body), Size: int64(len(body))}, body
}

// TestFetchResumesAnInterruptedTransfer serves cora.npz cut off mid-transfer once: the
// first fetch fails naming the URL and keeps the bytes received in .part, the second
// asks for the rest with a Range header and places the verified file.
func TestFetchResumesAnInterruptedTransfer(t *testing.T) {
	var body []byte
	var calls int
	srv := newTestServer(t, t.TempDir(), map[string]http.HandlerFunc{"/cut/cora.npz": func(w http.ResponseWriter, r *http.Request) {
		if calls++; calls == 1 {
			w.Header().Set("Content-Length", itoa(len(body)))
			w.Write(body[:len(body)/2])
			panic(http.ErrAbortHandler) // drop the connection mid-body
		}
		http.ServeContent(w, r, "cora.npz", time.Time{}, bytes.NewReader(body))
	}})
	f, b := coraFile(t, srv, "/cut/cora.npz")
	body = b
	root := t.TempDir()
	dest := filepath.Join(root, "gnn-benchmark", "cora.npz")
	_, err := fetchFile(root, f, srv.fetchOpts(nil))
	if err == nil || !strings.Contains(err.Error(), f.URL) || !strings.Contains(err.Error(), "resume") {
		t.Fatalf("interrupted fetch: %v, want an error naming %s and resuming", err, f.URL)
	}
	part, _ := os.ReadFile(dest + ".part")
	if len(part) != len(body)/2 || !bytes.Equal(part, body[:len(part)]) {
		t.Fatalf(".part holds %d bytes, want the %d received", len(part), len(body)/2)
	}
	if _, err := fetchFile(root, f, srv.fetchOpts(nil)); err != nil {
		t.Fatalf("resumed fetch: %v", err)
	}
	_, _, ranges := srv.seen()
	if want := "bytes=" + itoa(len(body)/2) + "-"; ranges[len(ranges)-1] != want {
		t.Errorf("resumed request sent Range %q, want %q", ranges[len(ranges)-1], want)
	}
	if got, _ := os.ReadFile(dest); !bytes.Equal(got, body) {
		t.Errorf("placed file differs from the served one (%d bytes)", len(got))
	}
}

// TestFetchRefusesBrokenDownloads serves a truncated file, a wrong one of the right
// size and a 404: each error names the URL and the file to place by hand, the wrong
// checksum both digests; nothing is placed, and only the truncated download's .part is
// kept (to resume).
func TestFetchRefusesBrokenDownloads(t *testing.T) {
	body, err := os.ReadFile(shareddata.Path(t, "gnn-benchmark/cora.npz"))
	if err != nil {
		t.Fatal(err)
	}
	wrong := append([]byte("XX"), body[2:]...)
	srv := newTestServer(t, t.TempDir(), map[string]http.HandlerFunc{
		"/short/cora.npz": func(w http.ResponseWriter, r *http.Request) { w.Write(body[:1000]) },
		"/wrong/cora.npz": func(w http.ResponseWriter, r *http.Request) { w.Write(wrong) },
	})
	for _, c := range []struct{ path, want string }{
		{"/short/cora.npz", "sent 1000 of " + itoa(len(body)) + " bytes"},
		{"/wrong/cora.npz", "SHA-256 " + sha256Hex(wrong) + ", want " + sha256Hex(body)},
		{"/missing/cora.npz", "404"},
	} {
		f, _ := coraFile(t, srv, c.path)
		root := t.TempDir()
		dest := filepath.Join(root, "gnn-benchmark", "cora.npz")
		_, err := fetchFile(root, f, srv.fetchOpts(nil))
		if err == nil || !strings.Contains(err.Error(), f.URL) || !strings.Contains(err.Error(), c.want) ||
			!strings.Contains(err.Error(), "place it at "+dest) {
			t.Errorf("%s: %v, want an error naming the URL, %q and the file to place", c.path, err, c.want)
		}
		if _, err := os.Stat(dest); err == nil {
			t.Errorf("%s: a broken download was placed", c.path)
		}
		if _, err := os.Stat(dest + ".part"); c.path != "/short/cora.npz" && err == nil {
			t.Errorf("%s: a .part was left behind", c.path)
		}
	}
}

// TestFetchUnknownChecksumNeedsTrustNewThenRecordsIt fetches a file without a pinned
// checksum: refused before any request without TrustNew; with it, placed and its
// SHA-256 recorded beside it; once deleted, a download of other bytes fails against the
// recorded checksum.
func TestFetchUnknownChecksumNeedsTrustNewThenRecordsIt(t *testing.T) {
	content := []byte("first release")
	srv := newTestServer(t, t.TempDir(), map[string]http.HandlerFunc{
		"/new.bin": func(w http.ResponseWriter, r *http.Request) { w.Write(content) },
	})
	f := RemoteFile{Path: "set/new.bin", URL: srv.URL + "/new.bin"}
	root := t.TempDir()
	dest := filepath.Join(root, "set", "new.bin")
	if _, err := fetchFile(root, f, srv.fetchOpts(nil)); !errors.Is(err, ErrChecksumUnknown) || srv.count() != 0 ||
		!strings.Contains(err.Error(), "-trust-new") {
		t.Fatalf("without TrustNew: %v after %d requests, want a refusal naming -trust-new and no request", err, srv.count())
	}
	fo := srv.fetchOpts(nil)
	fo.TrustNew = true
	res, err := fetchFile(root, f, fo)
	if err != nil || !res.Recorded {
		t.Fatalf("with TrustNew: %v (recorded %v)", err, res.Recorded)
	}
	rec, _ := os.ReadFile(dest + ".sha256")
	if !strings.HasPrefix(string(rec), sha256Hex(content)) {
		t.Errorf("recorded %q, want the download's SHA-256 %s", rec, sha256Hex(content))
	}
	os.Remove(dest)
	content = []byte("silently changed")
	if _, err := fetchFile(root, f, fo); !errors.Is(err, ErrChecksumMismatch) {
		t.Errorf("changed file after recording: %v, want a checksum mismatch", err)
	}
}

// TestFetchPinnedChecksumsMatchSharedBytes checks every pinned checksum and size of the
// registry against the shared files (or the file inside a shared zip), and that every
// file whose canonical copy the shared data holds is pinned.
func TestFetchPinnedChecksumsMatchSharedBytes(t *testing.T) {
	shared := shareddata.Path(t, ".")
	zips := map[string]string{
		"gnn-benchmark/amazon_electronics_computers.npz": "gnn-benchmark/amazon-computers.zip",
		"gnn-benchmark/ms_academic_cs.npz":               "gnn-benchmark/coauthor-cs.zip",
	}
	pinned := 0
	for _, d := range KnownDatasets() {
		for _, f := range d.Sources {
			b, err := sharedBytes(shared, f.Path, zips[f.Path])
			if f.SHA256 == "" {
				if err == nil {
					t.Errorf("%s: %s is in the shared data but its checksum is not pinned", d.Name, f.Path)
				}
				continue
			}
			pinned++
			if err != nil {
				t.Errorf("%s: %s pinned but not verifiable here: %v", d.Name, f.Path, err)
				continue
			}
			if got := sha256Hex(b); got != f.SHA256 || int64(len(b)) != f.Size {
				t.Errorf("%s: %s is %d bytes, SHA-256 %s; pinned %d, %s", d.Name, f.Path, len(b), got, f.Size, f.SHA256)
			}
		}
	}
	if pinned < 28 {
		t.Errorf("%d pinned files, want at least the 28 verifiable here", pinned)
	}
}

// sharedBytes reads rel under shared, or the member named like rel inside zipRel.
func sharedBytes(shared, rel, zipRel string) ([]byte, error) {
	if zipRel == "" {
		return os.ReadFile(filepath.Join(shared, rel))
	}
	zr, err := zip.OpenReader(filepath.Join(shared, zipRel))
	if err != nil {
		return nil, err
	}
	defer zr.Close()
	rc, err := zr.Open(filepath.Base(rel))
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return io.ReadAll(rc)
}

func itoa(n int) string { return strconv.Itoa(n) }

// zipOf returns a zip archive of the given entries.
func zipOf(t *testing.T, entries map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, body := range entries {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(body))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestFetchUnpacksArchivesIntoTheLoaderLayout fetches an OGB-shaped zip (entries under
// arxiv/): its entries land under ogbn-arxiv/ with arxiv/ stripped and the archive is
// not kept; a zip with an entry climbing out of the folder is refused and unpacks
// nothing.
func TestFetchUnpacksArchivesIntoTheLoaderLayout(t *testing.T) {
	good := zipOf(t, map[string]string{"arxiv/raw/edge.csv.gz": "e", "arxiv/split/time/train.csv.gz": "s"})
	evil := zipOf(t, map[string]string{"arxiv/raw/a": "a", "arxiv/../../evil": "x"})
	srv := newTestServer(t, t.TempDir(), map[string]http.HandlerFunc{
		"/good.zip": func(w http.ResponseWriter, r *http.Request) { w.Write(good) },
		"/evil.zip": func(w http.ResponseWriter, r *http.Request) { w.Write(evil) },
	})
	for _, c := range []struct {
		url  string
		body []byte
		ok   bool
	}{{"/good.zip", good, true}, {"/evil.zip", evil, false}} {
		root := t.TempDir()
		f := RemoteFile{Path: "ogbn-arxiv/arxiv.zip", URL: srv.URL + c.url, SHA256: sha256Hex(c.body), Size: int64(len(c.body)),
			Unpack: "zip", Strip: "arxiv/", Into: "ogbn-arxiv", Done: "ogbn-arxiv/raw"}
		_, err := fetchFile(root, f, srv.fetchOpts(nil))
		got, _ := os.ReadFile(filepath.Join(root, "ogbn-arxiv", "split", "time", "train.csv.gz"))
		_, zipKept := os.Stat(filepath.Join(root, "ogbn-arxiv", "arxiv.zip"))
		if c.ok && (err != nil || string(got) != "s" || zipKept == nil) {
			t.Errorf("%s: %v; split file %q; archive kept %v", c.url, err, got, zipKept == nil)
		}
		_, rawErr := os.Stat(filepath.Join(root, "ogbn-arxiv", "raw"))
		if !c.ok && (err == nil || !strings.Contains(err.Error(), "outside") || rawErr == nil) {
			t.Errorf("%s: %v (raw unpacked: %v), want a refusal naming the entry outside", c.url, err, rawErr == nil)
		}
	}
}

// tarGzOf returns a gzipped tar archive of the given files.
func tarGzOf(t *testing.T, entries map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for name, body := range entries {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		tw.Write([]byte(body))
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	gz.Close()
	return buf.Bytes()
}

// TestLoadFetchCompletesAPartialDataSet loads peptides-func with fetching from a root
// holding only its CSV (as an interrupted fetch leaves it): the missing split is
// fetched, the CSV is not downloaded again, and the set loads.
func TestLoadFetchCompletesAPartialDataSet(t *testing.T) {
	shared := shareddata.Path(t, ".")
	srv := newTestServer(t, shared, nil)
	root := t.TempDir()
	csv, err := os.ReadFile(filepath.Join(shared, "peptides-func", PeptidesCSV))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "peptides-func"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "peptides-func", PeptidesCSV), csv, 0o644); err != nil {
		t.Fatal(err)
	}
	fo := srv.fetchOpts(nil)
	fo.Mirror = srv.URL
	ds, err := Load("peptides-func", LoadOptions{DataDir: root, NoCache: true, Fetch: &fo})
	if err != nil || len(ds.Graphs) == 0 {
		t.Fatalf("load with fetch: %v", err)
	}
	if n, paths, _ := srv.seen(); n != 1 || !strings.HasSuffix(paths[0], PeptidesSplit) {
		t.Errorf("requests %v, want only the split", paths)
	}
}

// TestFetchUnpacksTarGzWithoutOverwriting fetches a MalNet-shaped tar.gz into a folder:
// unpacked in place; a second archive whose top entry is already there is refused and
// leaves the first one's files as they were.
func TestFetchUnpacksTarGzWithoutOverwriting(t *testing.T) {
	first := tarGzOf(t, map[string]string{"malnet-graphs-tiny/benign/f/a.edgelist": "0 1\n"})
	second := tarGzOf(t, map[string]string{"malnet-graphs-tiny/benign/f/a.edgelist": "changed\n"})
	srv := newTestServer(t, t.TempDir(), map[string]http.HandlerFunc{
		"/first.tar.gz":  func(w http.ResponseWriter, r *http.Request) { w.Write(first) },
		"/second.tar.gz": func(w http.ResponseWriter, r *http.Request) { w.Write(second) },
	})
	root := t.TempDir()
	file := func(url string, body []byte, done string) RemoteFile {
		return RemoteFile{Path: "malnet-tiny/g.tar.gz", URL: srv.URL + url, SHA256: sha256Hex(body), Size: int64(len(body)),
			Unpack: "tar.gz", Into: "malnet-tiny", Done: done}
	}
	graph := filepath.Join(root, "malnet-tiny", "malnet-graphs-tiny", "benign", "f", "a.edgelist")
	if _, err := fetchFile(root, file("/first.tar.gz", first, "malnet-tiny/malnet-graphs-tiny"), srv.fetchOpts(nil)); err != nil {
		t.Fatalf("first archive: %v", err)
	}
	if b, _ := os.ReadFile(graph); string(b) != "0 1\n" {
		t.Fatalf("unpacked graph holds %q", b)
	}
	_, err := fetchFile(root, file("/second.tar.gz", second, "malnet-tiny/other"), srv.fetchOpts(nil))
	if err == nil || !strings.Contains(err.Error(), "already there") {
		t.Errorf("second archive over the first: %v, want a refusal", err)
	}
	if b, _ := os.ReadFile(graph); string(b) != "0 1\n" {
		t.Errorf("the refused archive changed the graph to %q", b)
	}
}
