package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/gexph/gexph/internal/sysinfo"
)

// limitedRun is the outcome of runWithMemoryLimit.
type limitedRun struct {
	// Stdout is what the child printed on its standard output.
	Stdout []byte
	// OverLimit tells that the child was stopped for exceeding the limit; PeakRSSMB is
	// the largest resident size seen, in MiB.
	OverLimit bool
	PeakRSSMB float64
}

// runWithMemoryLimit runs the program with args (and env added to this process's
// environment), its standard error copied to stderr,
// and polls its resident memory (VmRSS) every 20 ms: past limitMB (0: no limit) the
// child is killed and the result says OverLimit. Any other failure is an error.
func runWithMemoryLimit(ctx context.Context, program string, args, env []string, limitMB float64, stderr io.Writer) (limitedRun, error) {
	cmd := exec.CommandContext(ctx, program, args...)
	cmd.Env = append(os.Environ(), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, stderr
	if err := cmd.Start(); err != nil {
		return limitedRun{}, err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	var res limitedRun
	for {
		select {
		case err := <-done:
			res.Stdout = out.Bytes()
			if err != nil && !res.OverLimit {
				return res, fmt.Errorf("%s %s: %w", program, strings.Join(args, " "), err)
			}
			return res, nil
		case <-tick.C:
			rss := sysinfo.ProcessRSSMB(cmd.Process.Pid)
			res.PeakRSSMB = max(res.PeakRSSMB, rss)
			if limitMB > 0 && rss > limitMB && !res.OverLimit {
				res.OverLimit = true
				_ = cmd.Process.Kill()
			}
		}
	}
}
