package data

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gexph/gexph/internal/atomicfile"
)

// RemoteFile is one file of a named data set that Fetch can download.
type RemoteFile struct {
	// Path is where the file lies under the data root, slash-separated, in the layout
	// ../shared/data uses; a mirror (FetchOptions.Mirror) serves it at MIRROR/Path.
	Path string
	// URL is the file's canonical address; empty when no canonical distribution holds
	// the file in the layout the loader reads (Note then says how to make it).
	URL string
	// SHA256 is the pinned hex digest of the file; empty when unknown (see
	// FetchOptions.TrustNew).
	SHA256 string
	// Size is the file's length in bytes; 0 when unknown.
	Size int64
	// Note says where the file comes from when URL is empty.
	Note string
	// Unpack is "zip" or "tar.gz" for an archive that is unpacked, after its checksum
	// is verified, into the folder Into under the data root, with the leading folder
	// Strip removed from each entry; the archive itself is not kept. Empty for a file
	// kept as downloaded.
	Unpack, Strip, Into string
	// Done is the path under the data root whose presence shows an unpacked archive in
	// place; empty means Path.
	Done string
}

// FetchOptions configures Fetch and the fetching of missing files by Load.
type FetchOptions struct {
	// Mirror, when set, is a base URL serving the data root's layout (a copy of
	// ../shared/data): each file is fetched from Mirror + "/" + RemoteFile.Path instead
	// of its canonical URL, and checked against the same checksum.
	Mirror string
	// TrustNew allows fetching files whose checksum gexph does not know (those no
	// copy in the project could verify): the SHA-256 of the first download is recorded
	// beside the file, in Path + ".sha256", and later downloads are verified against it.
	// Without TrustNew such files are refused before any request.
	TrustNew bool
	// Client makes the requests; nil means a client with connection and header
	// timeouts.
	Client *http.Client
	// Progress receives a progress line per file, updated in place; nil prints none.
	Progress io.Writer
	// Context cancels the downloads; nil means context.Background().
	Context context.Context
}

// ErrChecksumUnknown is wrapped by Fetch's refusal of a file without a pinned checksum
// when FetchOptions.TrustNew is not set.
var ErrChecksumUnknown = errors.New("checksum unknown")

// ErrChecksumMismatch is wrapped by Fetch's errors for a download, or a file in place,
// whose SHA-256 differs from the pinned or recorded one.
var ErrChecksumMismatch = errors.New("checksum mismatch")

// FetchResult says what Fetch did with one file.
type FetchResult struct {
	File RemoteFile
	// Dest is the file (or the unpacked archive's Done path) under the data root.
	Dest string
	// From is the URL downloaded from; empty when the file was already in place.
	From string
	// SHA256 is the checksum verified, or recorded for a file fetched with TrustNew.
	SHA256 string
	// Recorded tells that the checksum was recorded by this download (TrustNew).
	Recorded bool
}

// FetchSources returns the remote files of the named data set; an error for an unknown
// name, or one that has nothing to fetch (generated, or unreadable by gexph).
func FetchSources(name string) ([]RemoteFile, error) {
	for _, d := range KnownDatasets() {
		if d.Name != strings.ToLower(name) {
			continue
		}
		if len(d.Sources) == 0 {
			return nil, fmt.Errorf("data set %q has no files to fetch (%s)", name, d.Description)
		}
		return d.Sources, nil
	}
	return nil, fmt.Errorf("unknown data set %q (see gexph data -list)", name)
}

// FetchRoot returns the data root Fetch writes to: opts.DataDir, else $GEXPH_DATA, else
// the first of DataRoots.
func FetchRoot(opts LoadOptions) (string, error) {
	roots := DataRoots(opts)
	if len(roots) == 0 {
		return "", errors.New("fetch: no data root (give -data-dir or $GEXPH_DATA)")
	}
	return roots[0], nil
}

// Fetch downloads the files of the named data set that are missing under the data root
// (FetchRoot), the only network access gexph makes: each from its canonical URL (or
// the mirror) into Path + ".part", resuming a partial download with an HTTP range
// request, checked for size and SHA-256, then renamed into place (or unpacked). Files
// already in place are checked against their checksum, never replaced. Errors name the
// URL, the expected and actual checksum, and the file to place by hand.
func Fetch(name string, lo LoadOptions, fo FetchOptions) ([]FetchResult, error) {
	files, err := FetchSources(name)
	if err != nil {
		return nil, err
	}
	root, err := FetchRoot(lo)
	if err != nil {
		return nil, err
	}
	var out []FetchResult
	for _, f := range files {
		r, err := fetchFile(root, f, fo)
		if err != nil {
			return out, fmt.Errorf("fetch %s: %w", name, err)
		}
		out = append(out, r)
	}
	return out, nil
}

// fetchMissing fetches the named data set's files for Load (LoadOptions.Fetch) unless
// every one of them is in place under one data root.
func fetchMissing(name string, sources []RemoteFile, opts LoadOptions) error {
	for _, root := range DataRoots(opts) {
		complete := true
		for _, f := range sources {
			if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(cmp.Or(f.Done, f.Path)))); err != nil {
				complete = false
				break
			}
		}
		if complete {
			return nil
		}
	}
	_, err := Fetch(name, opts, *opts.Fetch)
	return err
}

// fetchFile brings one remote file into place under root.
func fetchFile(root string, f RemoteFile, o FetchOptions) (FetchResult, error) {
	dest := filepath.Join(root, filepath.FromSlash(f.Path))
	res := FetchResult{File: f, Dest: dest}
	if f.Done != "" {
		res.Dest = filepath.Join(root, filepath.FromSlash(f.Done))
	}
	want, recorded, err := expectedSHA(f, dest)
	if err != nil {
		return res, err
	}
	if present, err := inPlace(res.Dest, f.Unpack == "", want); present || err != nil {
		res.SHA256 = want
		return res, err
	}
	url := f.URL
	if o.Mirror != "" {
		url = strings.TrimRight(o.Mirror, "/") + "/" + f.Path
	}
	if url == "" {
		return res, fmt.Errorf("%s: no canonical URL serves this file: %s; or place it there by hand", dest, f.Note)
	}
	if want == "" && !o.TrustNew {
		return res, fmt.Errorf("%s: gexph knows no SHA-256 of %s to verify it, so it is not downloaded (%w): "+
			"rerun with -trust-new (FetchOptions.TrustNew) to download it and record the checksum of this first "+
			"download in %s.sha256, against which later downloads are verified; or place the file there by hand",
			dest, url, ErrChecksumUnknown, dest)
	}
	res.From = url
	part := dest + ".part"
	if err := download(url, part, f.Size, o); err != nil {
		again := ""
		if info, serr := os.Stat(part); serr == nil && info.Size() > 0 {
			again = "run the fetch again to resume, "
		} else {
			os.Remove(part) // nothing received: leave no empty .part behind
		}
		return res, fmt.Errorf("%w; %sor download %s by hand and place it at %s", err, again, url, dest)
	}
	got, err := fileSHA256(part)
	if err != nil {
		return res, err
	}
	if want != "" && got != want {
		os.Remove(part)
		return res, fmt.Errorf("%s: SHA-256 %s, want %s (%w; the download was deleted): the server holds other "+
			"bytes than gexph pins; download the right file by hand and place it at %s", url, got, want, ErrChecksumMismatch, dest)
	}
	res.SHA256, res.Recorded = got, want == ""
	if err := place(root, part, dest, f); err != nil {
		return res, err
	}
	if res.Recorded && !recorded {
		return res, atomicfile.WriteBytes(dest+".sha256", []byte(got+"  "+filepath.Base(dest)+"\n"))
	}
	return res, nil
}

// expectedSHA returns the pinned checksum of f, else the one recorded beside dest by an
// earlier download (recorded true), else "".
func expectedSHA(f RemoteFile, dest string) (sha string, recorded bool, err error) {
	if f.SHA256 != "" {
		return f.SHA256, false, nil
	}
	b, err := os.ReadFile(dest + ".sha256")
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("reading the recorded checksum: %w", err)
	}
	fields := strings.Fields(string(b))
	if len(fields) == 0 || len(fields[0]) != 64 {
		return "", false, fmt.Errorf("%s.sha256: want a hex SHA-256 first, got %q", dest, strings.TrimSpace(string(b)))
	}
	return fields[0], true, nil
}

// inPlace tells whether dest exists; a plain file with a known checksum must match it
// (a mismatch is an error, and the file is left as it is).
func inPlace(dest string, plain bool, want string) (bool, error) {
	if _, err := os.Stat(dest); errors.Is(err, fs.ErrNotExist) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	if !plain || want == "" {
		return true, nil
	}
	got, err := fileSHA256(dest)
	if err != nil {
		return true, err
	}
	if got != want {
		return true, fmt.Errorf("%s is in place but its SHA-256 is %s, not %s (%w): move it away and fetch again, "+
			"or keep it and load it by path", dest, got, want, ErrChecksumMismatch)
	}
	return true, nil
}

// place moves a verified download into the data root: renamed to dest, or unpacked.
func place(root, part, dest string, f RemoteFile) error {
	if f.Unpack == "" {
		if err := atomicfile.Rename(part, dest); err != nil {
			return fmt.Errorf("placing %s: %w", dest, err)
		}
		return nil
	}
	if err := unpack(part, f.Unpack, f.Strip, filepath.Join(root, filepath.FromSlash(f.Into))); err != nil {
		return fmt.Errorf("unpacking %s (from %s): %w", dest, f.URL, err)
	}
	done := filepath.Join(root, filepath.FromSlash(f.Done))
	if _, err := os.Stat(done); err != nil {
		return fmt.Errorf("unpacking %s: the archive did not hold %s, which the loader reads", dest, done)
	}
	return os.Remove(part)
}

// fileSHA256 returns the hex SHA-256 of the file at path.
func fileSHA256(path string) (string, error) {
	fh, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer fh.Close()
	h := sha256.New()
	if _, err := io.Copy(h, fh); err != nil {
		return "", fmt.Errorf("reading %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// httpClient returns o.Client, or a client that gives up on a silent server.
func (o FetchOptions) httpClient() *http.Client {
	if o.Client != nil {
		return o.Client
	}
	return &http.Client{Transport: &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: 30 * time.Second}).DialContext,
		TLSHandshakeTimeout:   30 * time.Second,
		ResponseHeaderTimeout: 60 * time.Second,
	}}
}

func (o FetchOptions) ctx() context.Context {
	if o.Context != nil {
		return o.Context
	}
	return context.Background()
}
