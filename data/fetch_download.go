package data

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// download brings url into part, resuming from the bytes part already holds with an
// HTTP range request. size, when known (> 0), bounds the download: a longer body is an
// error, a shorter one leaves part for the next try to resume.
func download(url, part string, size int64, o FetchOptions) error {
	if err := os.MkdirAll(filepath.Dir(part), 0o755); err != nil {
		return fmt.Errorf("creating the folder of %s: %w (give a writable data root with -data-dir)", part, err)
	}
	fh, err := os.OpenFile(part, os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("opening %s: %w", part, err)
	}
	defer fh.Close()
	have, err := fh.Seek(0, io.SeekEnd)
	if err != nil {
		return err
	}
	if size > 0 && have == size {
		return nil // a finished download that was not yet verified
	}
	if size > 0 && have > size {
		have = 0
	}
	resp, have, err := request(url, have, o)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if err := fh.Truncate(have); err != nil {
		return err
	}
	if _, err := fh.Seek(have, io.SeekStart); err != nil {
		return err
	}
	total := size
	if total <= 0 && resp.ContentLength >= 0 {
		total = have + resp.ContentLength
	}
	bar := newProgress(o.Progress, filepath.Base(strings.TrimSuffix(part, ".part")), have, total)
	body := io.Reader(resp.Body)
	if size > 0 {
		body = io.LimitReader(resp.Body, size-have+1)
	}
	n, err := io.Copy(io.MultiWriter(fh, bar), body)
	bar.finish()
	if err != nil {
		return fmt.Errorf("%s: interrupted after %d bytes: %w (the %d bytes so far are kept in %s)", url, have+n, err, have+n, part)
	}
	if err := fh.Sync(); err != nil {
		return fmt.Errorf("writing %s: %w", part, err)
	}
	switch got := have + n; {
	case size > 0 && got > size:
		os.Remove(part)
		return fmt.Errorf("%s: more than the %d bytes expected (the download was deleted)", url, size)
	case size > 0 && got < size:
		return fmt.Errorf("%s: the server sent %d of %d bytes (kept in %s)", url, got, size, part)
	}
	return nil
}

// request asks for url from byte have on (a range request when have > 0) and returns
// the response and the offset its body starts at: have for a partial response, 0 when
// the server sends the whole file.
func request(url string, have int64, o FetchOptions) (*http.Response, int64, error) {
	req, err := http.NewRequestWithContext(o.ctx(), http.MethodGet, url, nil)
	if err != nil {
		return nil, 0, fmt.Errorf("fetch URL %q: %w", url, err)
	}
	if have > 0 {
		req.Header.Set("Range", fmt.Sprintf("bytes=%d-", have))
	}
	resp, err := o.httpClient().Do(req)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w (offline?)", url, err)
	}
	switch {
	case resp.StatusCode == http.StatusOK:
		return resp, 0, nil
	case resp.StatusCode == http.StatusPartialContent && have > 0:
		if cr := resp.Header.Get("Content-Range"); !strings.HasPrefix(cr, fmt.Sprintf("bytes %d-", have)) {
			resp.Body.Close()
			return nil, 0, fmt.Errorf("%s: asked for bytes %d on, the server sent range %q", url, have, cr)
		}
		return resp, have, nil
	case resp.StatusCode == http.StatusRequestedRangeNotSatisfiable && have > 0:
		resp.Body.Close()
		return request(url, 0, o) // the partial file is no prefix of the server's: start over
	}
	resp.Body.Close()
	return nil, 0, fmt.Errorf("%s: HTTP %s", url, resp.Status)
}

// progress draws a progress line, updated in place at most every 200 ms.
type progress struct {
	w           io.Writer
	name        string
	done, total int64
	last        time.Time
}

func newProgress(w io.Writer, name string, done, total int64) *progress {
	return &progress{w: w, name: name, done: done, total: total}
}

// Write counts p and redraws the line when it is due.
func (p *progress) Write(b []byte) (int, error) {
	p.done += int64(len(b))
	if p.w != nil && time.Since(p.last) >= 200*time.Millisecond {
		p.draw()
	}
	return len(b), nil
}

func (p *progress) draw() {
	p.last = time.Now()
	if p.total > 0 {
		fmt.Fprintf(p.w, "\r%-40s %9.1f / %.1f MB %3d%%", p.name, float64(p.done)/1e6, float64(p.total)/1e6, p.done*100/p.total)
		return
	}
	fmt.Fprintf(p.w, "\r%-40s %9.1f MB", p.name, float64(p.done)/1e6)
}

// finish draws the final state and ends the line.
func (p *progress) finish() {
	if p.w != nil {
		p.draw()
		fmt.Fprintln(p.w)
	}
}
