package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gexph/gexph/gexph"
	"github.com/gexph/gexph/internal/dirlock"
	"github.com/gexph/gexph/internal/dirsnap"
)

// holdLockEnv makes the test binary a process that holds the run directory it names
// (see TestMain): it acquires the lock, prints "locked" and holds it until its
// standard input closes.
const holdLockEnv = "GEXPH_TEST_HOLD_LOCK"

// holdLock is the lock-holding child process.
func holdLock(dir string) int {
	l, err := dirlock.Acquire(dir)
	if err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		return 1
	}
	os.Stdout.WriteString("locked\n")
	io.Copy(io.Discard, os.Stdin)
	l.Release()
	return 0
}

// trainedDir trains the tiny run into a new directory and returns it with a snapshot.
func trainedDir(t *testing.T) (string, map[string]string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "run")
	if code, _, errOut := runCLI(t, append([]string{"train", "-out", dir}, tinyTrainArgs...)...); code != 0 {
		t.Fatalf("train: %s", errOut)
	}
	return dir, dirsnap.Take(t, dir)
}

// -force on a directory that another process holds is refused first — before the data
// set loads, so a bad data set is refused for the lock too — and touches nothing.
func TestForceWhileAnotherProcessHoldsTheLockIsRefusedUntouched(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a model")
	}
	dir, before := trainedDir(t)
	holder := exec.Command(os.Args[0], "-test.run", "^$")
	holder.Env = append(os.Environ(), holdLockEnv+"="+dir)
	stdin, err := holder.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := holder.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	defer holder.Wait()
	defer stdin.Close()
	if line, err := bufio.NewReader(stdout).ReadString('\n'); err != nil || line != "locked\n" {
		t.Fatalf("lock holder: %q, %v", line, err)
	}
	for _, spec := range []string{"pattern", "npz:/nonexistent/x.npz"} {
		args := append([]string{"train", "-force", "-out", dir}, tinyArgsWithDataset(spec)...)
		code, _, errOut := runCLI(t, args...)
		if code == 0 || !strings.Contains(errOut, "in use by another process") {
			t.Errorf("-force -dataset %s on a held directory: exit %d, stderr %q; want a refusal saying it is in use", spec, code, errOut)
		}
	}
	dirsnap.RequireSame(t, "-force on a held directory", dir, before)
}

// -force with a data set that does not load leaves the earlier run intact.
func TestForceWithABadDataSetKeepsTheEarlierRun(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a model")
	}
	dir, before := trainedDir(t)
	bad := filepath.Join(t.TempDir(), "bad.npz")
	if err := os.WriteFile(bad, []byte("not a zip archive"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, spec := range []string{"npz:" + bad, "npz:" + filepath.Join(t.TempDir(), "missing.npz")} {
		args := append([]string{"train", "-force", "-out", dir}, tinyArgsWithDataset(spec)...)
		if code, _, errOut := runCLI(t, args...); code == 0 || !strings.Contains(errOut, strings.TrimPrefix(spec, "npz:")) {
			t.Errorf("-force -dataset %s: exit %d, stderr %q; want an error naming the file", spec, code, errOut)
		}
		dirsnap.RequireSame(t, "-force -dataset "+spec, dir, before)
	}
}

// -resume on a directory without last.ckpt that holds another run's best.ckpt and
// result.json is refused with a message naming them, and touches nothing.
func TestResumeOverAnotherRunsFilesIsRefusedUntouched(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a model")
	}
	dir, _ := trainedDir(t)
	if err := os.Remove(filepath.Join(dir, gexph.LastCheckpointFile)); err != nil {
		t.Fatal(err)
	}
	before := dirsnap.Take(t, dir)
	args := append([]string{"train", "-resume", "-out", dir}, tinyArgsWithDataset("cluster")...)
	code, _, errOut := runCLI(t, args...)
	for _, want := range []string{"no last.ckpt", gexph.BestCheckpointFile, gexph.ResultFile} {
		if code == 0 || !strings.Contains(errOut, want) {
			t.Errorf("-resume over another run's files: exit %d, stderr %q; want a refusal naming %q", code, errOut, want)
		}
	}
	if strings.Contains(errOut, "starting from scratch") {
		t.Errorf("-resume said it starts from scratch: %q", errOut)
	}
	dirsnap.RequireSame(t, "refused -resume", dir, before)
}

// killArgs train the tiny run for 5 epochs into dir, resuming where it stopped.
func killArgs(dir string) []string {
	args := append([]string{"train", "-out", dir, "-resume"}, tinyTrainArgs...)
	return append(args, "-epochs", "5")
}

// startCLI starts the test binary as the gexph command (runAsMainEnv) with args; its
// standard error goes to stderr.
func startCLI(t *testing.T, stderr io.Writer, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), runAsMainEnv+"=1")
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd
}

// A run of the command killed (SIGKILL) at random points, several times, leaves a
// directory whose every file parses, and -resume then ends it as the uninterrupted run
// ends.
func TestKilledCommandResumesToTheUninterruptedResult(t *testing.T) {
	if testing.Short() {
		t.Skip("trains several runs in child processes")
	}
	full := filepath.Join(t.TempDir(), "full")
	start := time.Now()
	var errOut bytes.Buffer
	if err := startCLI(t, &errOut, killArgs(full)...).Wait(); err != nil {
		t.Fatalf("uninterrupted run: %v: %s", err, errOut.String())
	}
	whole := time.Since(start)
	dir := filepath.Join(t.TempDir(), "killed")
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 28))
	for i := 0; i < 6; i++ {
		delay := time.Duration(rng.Float64() * 0.6 * float64(whole)) // resumed runs are shorter
		errOut.Reset()
		cmd := startCLI(t, &errOut, killArgs(dir)...)
		timer := time.AfterFunc(delay, func() { cmd.Process.Signal(syscall.SIGKILL) })
		err := cmd.Wait()
		timer.Stop()
		var ee *exec.ExitError
		if err != nil && !(errors.As(err, &ee) && !ee.Exited()) {
			t.Fatalf("run killed after %v failed on its own: %v: %s", delay, err, errOut.String())
		}
		if err := gexph.VerifyRunDir(dir); err != nil {
			t.Error(err)
		}
		info, err := gexph.ReadCheckpointInfo(filepath.Join(dir, gexph.LastCheckpointFile))
		t.Logf("killed after %v: last.ckpt holds epoch %d (%v)", delay, info.Epoch, err)
	}
	errOut.Reset()
	if err := startCLI(t, &errOut, killArgs(dir)...).Wait(); err != nil {
		t.Fatalf("resumed run: %v: %s", err, errOut.String())
	}
	requireSameRun(t, full, dir)
}

// requireSameRun compares the results of two run directories, epoch by epoch (timings
// aside), and their last checkpoints' progress (the weights are compared by gexph's
// own kill test).
func requireSameRun(t *testing.T, wantDir, gotDir string) {
	t.Helper()
	read := func(dir string) gexph.Result {
		raw, err := os.ReadFile(filepath.Join(dir, gexph.ResultFile))
		if err != nil {
			t.Fatal(err)
		}
		var res gexph.Result
		if err := json.Unmarshal(raw, &res); err != nil {
			t.Fatal(err)
		}
		return res
	}
	want, got := read(wantDir), read(gotDir)
	if len(want.History) != len(got.History) || want.ValMetric != got.ValMetric || want.TestMetric != got.TestMetric {
		t.Fatalf("%d epochs, val %v, test %v; want %d, %v, %v", len(got.History), got.ValMetric, got.TestMetric, len(want.History), want.ValMetric, want.TestMetric)
	}
	for i, a := range want.History {
		b := got.History[i]
		if math.Abs(a.TrainLoss-b.TrainLoss) > 1e-6 || math.Abs(a.ValLoss-b.ValLoss) > 1e-6 || a.ValMetric != b.ValMetric {
			t.Errorf("epoch %d: %+v, want %+v", i+1, b, a)
		}
	}
	ckWant, err1 := gexph.ReadCheckpointInfo(filepath.Join(wantDir, gexph.LastCheckpointFile))
	ckGot, err2 := gexph.ReadCheckpointInfo(filepath.Join(gotDir, gexph.LastCheckpointFile))
	if err1 != nil || err2 != nil || ckWant.Epoch != ckGot.Epoch || ckWant.BestEpoch != ckGot.BestEpoch || ckWant.BestVal != ckGot.BestVal {
		t.Errorf("last.ckpt: epoch %d, best %d (%v), %v; want %d, %d (%v), %v", ckGot.Epoch, ckGot.BestEpoch, ckGot.BestVal, err2, ckWant.Epoch, ckWant.BestEpoch, ckWant.BestVal, err1)
	}
}

// SIGTERM ends a run cleanly: the error says which epoch was interrupted, what
// last.ckpt holds and the command that continues; no temporary file is left; that
// command ends the run as an uninterrupted one.
func TestSIGTERMEndsTheRunCleanlyAndSaysHowToContinue(t *testing.T) {
	if testing.Short() {
		t.Skip("trains models in child processes")
	}
	full := filepath.Join(t.TempDir(), "full")
	if err := startCLI(t, io.Discard, killArgs(full)...).Wait(); err != nil {
		t.Fatalf("uninterrupted run: %v", err)
	}
	dir := filepath.Join(t.TempDir(), "run")
	args := slices.DeleteFunc(killArgs(dir), func(a string) bool { return a == "-resume" || a == "-quiet" })
	msg, err := runSignalledAfter(t, args, "epoch 1/5", syscall.SIGTERM)
	if err == nil {
		t.Fatalf("a run sent SIGTERM exited 0:\n%s", msg)
	}
	t.Logf("stderr ends: %s", msg[strings.LastIndex(strings.TrimSpace(msg), "\n")+1:])
	for _, want := range []string{"interrupted in epoch", filepath.Join(dir, gexph.LastCheckpointFile) + " holds epoch", "continue with: gexph train -out " + dir, " -resume"} {
		if !strings.Contains(msg, want) {
			t.Errorf("SIGTERM: stderr lacks %q:\n%s", want, msg)
		}
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp") || e.Name() == gexph.ResultFile {
			t.Errorf("%s left by an interrupted run", e.Name())
		}
	}
	if err := gexph.VerifyRunDir(dir); err != nil {
		t.Error(err)
	}
	if err := startCLI(t, io.Discard, append(args, "-resume")...).Wait(); err != nil {
		t.Fatalf("continued run: %v", err)
	}
	requireSameRun(t, full, dir)
}

// tinyArgsWithDataset is tinyTrainArgs with another -dataset (a flag given twice is
// refused).
func tinyArgsWithDataset(spec string) []string {
	args := slices.Clone(tinyTrainArgs)
	for i := range args {
		if args[i] == "-dataset" {
			args[i+1] = spec
		}
	}
	return args
}

// SIGINT ends a run without -out cleanly too: the error says that nothing was saved and
// gives the command line that would keep the run's checkpoints.
func TestSIGINTWithoutOutSaysNothingWasSavedAndHowToKeepARun(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a model in a child process")
	}
	quiet := func(a string) bool { return a == "-quiet" }
	args := append(append([]string{"train"}, slices.DeleteFunc(slices.Clone(tinyTrainArgs), quiet)...), "-epochs", "500")
	msg, err := runSignalledAfter(t, args, "epoch   1/500", os.Interrupt)
	if err == nil {
		t.Fatalf("a run sent SIGINT exited 0:\n%s", msg)
	}
	t.Logf("stderr:\n%s", msg)
	for _, want := range []string{"interrupted in epoch", "no output directory: nothing saved", "give it a directory: gexph train ", " -out DIR"} {
		if !strings.Contains(msg, want) {
			t.Errorf("SIGINT: stderr lacks %q:\n%s", want, msg)
		}
	}
}

// runSignalledAfter runs the command in a child process, sends it sig once a line of its
// stderr starts with prefix (the end of the first epoch), and returns all of its stderr
// (read to the end in one goroutine) and how it exited.
func runSignalledAfter(t *testing.T, args []string, prefix string, sig os.Signal) (string, error) {
	t.Helper()
	pr, pw := io.Pipe()
	cmd := startCLI(t, pw, args...)
	var errOut bytes.Buffer
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			errOut.WriteString(sc.Text() + "\n")
			if strings.HasPrefix(sc.Text(), prefix) {
				cmd.Process.Signal(sig)
			}
		}
	}()
	err := cmd.Wait()
	pw.Close()
	<-done
	return errOut.String(), err
}
