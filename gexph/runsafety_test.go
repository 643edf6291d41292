package gexph

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
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

	"github.com/gexph/gexph/data"
	"github.com/gexph/gexph/internal/dirlock"
	"github.com/gexph/gexph/internal/dirsnap"
	"github.com/gexph/gexph/internal/rundir"
)

// finishedRun trains a 2-epoch run into a new directory and returns the directory, the
// run's config and data set and a snapshot of the directory.
func finishedRun(t *testing.T) (string, Config, *data.Dataset, map[string]string) {
	t.Helper()
	ds := tinyNodeDataset(8, 21)
	cfg := tinyConfig()
	dir := t.TempDir()
	train(t, cfg, ds, TrainOptions{OutDir: dir})
	return dir, cfg, ds, dirsnap.Take(t, dir)
}

// A fresh run in a directory that holds a run is refused, touching nothing.
func TestFreshRunOverAnEarlierRunIsRefusedUntouched(t *testing.T) {
	dir, cfg, ds, before := finishedRun(t)
	_, err := Train(context.Background(), cfg, ds, TrainOptions{OutDir: dir})
	if !errors.Is(err, ErrRunExists) || !strings.Contains(err.Error(), LastCheckpointFile) {
		t.Errorf("fresh run over a run: error %v, want ErrRunExists naming its files", err)
	}
	dirsnap.RequireSame(t, "refused fresh run", dir, before)
}

// A resumption asking for fewer epochs than the checkpoint has run is refused, naming
// both numbers and touching nothing (its result.json would otherwise hold more epochs
// than its config); as many epochs as were run resume to the same result.
func TestResumeWithFewerEpochsThanRunIsRefusedUntouched(t *testing.T) {
	dir, cfg, ds, before := finishedRun(t)
	fewer := cfg
	fewer.Epochs = cfg.Epochs - 1
	_, err := Train(context.Background(), fewer, ds, TrainOptions{OutDir: dir, Resume: true})
	want := fmt.Sprintf("has run %d epochs, more than the %d this run asks for", cfg.Epochs, fewer.Epochs)
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), dir) {
		t.Errorf("resume with -epochs %d after %d: error %v, want one saying %q", fewer.Epochs, cfg.Epochs, err, want)
	}
	dirsnap.RequireSame(t, "resume with fewer epochs", dir, before)
	res := train(t, cfg, ds, TrainOptions{OutDir: dir, Resume: true})
	if res.Epochs != cfg.Epochs || res.Config.Epochs != cfg.Epochs {
		t.Errorf("resume of a finished run: epochs %d, config.epochs %d, want %d both", res.Epochs, res.Config.Epochs, cfg.Epochs)
	}
}

// Force on a directory another run holds is refused before anything else — before the
// data set is even loaded — and touches nothing.
func TestForceWhileLockedIsRefusedFirstAndTouchesNothing(t *testing.T) {
	dir, cfg, ds, before := finishedRun(t)
	held, err := dirlock.Acquire(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Release()
	if _, err := Train(context.Background(), cfg, ds, TrainOptions{OutDir: dir, Force: true}); !errors.Is(err, dirlock.ErrLocked) {
		t.Errorf("Force on a locked directory: error %v, want ErrLocked", err)
	}
	if _, err := TrainFromSpec(context.Background(), "nosuchset", cfg, TrainOptions{OutDir: dir, Force: true}); !errors.Is(err, dirlock.ErrLocked) {
		t.Errorf("Force on a locked directory with a bad data set: error %v, want ErrLocked (the lock comes first)", err)
	}
	dirsnap.RequireSame(t, "Force on a locked directory", dir, before)
}

// A forced run that ends before its first checkpoint — its data set does not load, its
// config does not fit the data, it is interrupted before or after it wrote its logs —
// leaves the earlier run as it was.
func TestForceEndingBeforeItsFirstCheckpointKeepsTheEarlierRun(t *testing.T) {
	dir, cfg, ds, before := finishedRun(t)
	missing := filepath.Join(t.TempDir(), "missing.npz")
	if _, err := TrainFromSpec(context.Background(), "npz:"+missing, cfg, TrainOptions{OutDir: dir, Force: true}); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("Force with a missing data set: error %v, want one naming %s", err, missing)
	}
	dirsnap.RequireSame(t, "Force with a missing data set", dir, before)

	wrong := cfg
	wrong.Metric = MetricMAE
	if _, err := Train(context.Background(), wrong, ds, TrainOptions{OutDir: dir, Force: true}); err == nil {
		t.Error("Force with a config that does not fit the data: no error")
	}
	dirsnap.RequireSame(t, "Force with a config that does not fit the data", dir, before)

	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Train(cancelled, cfg, ds, TrainOptions{OutDir: dir, Force: true})
	var ie *InterruptedError
	if !errors.As(err, &ie) || !ie.Restored || !strings.Contains(err.Error(), "earlier run's files are back") {
		t.Errorf("Force interrupted before its first epoch: error %v, want an InterruptedError saying the earlier run is back", err)
	}
	dirsnap.RequireSame(t, "Force interrupted before its first epoch", dir, before)

	// Interrupted once its logs are written, while the earlier run waits aside.
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	var aside map[string]string
	hook := lineHook{match: "· compiling", do: func() {
		aside = dirsnap.Take(t, filepath.Join(dir, rundir.AsideDir))
		stop()
	}}
	cfg.Seed++
	if _, err := Train(ctx, cfg, ds, TrainOptions{OutDir: dir, Force: true, Log: &hook}); !errors.As(err, &ie) {
		t.Errorf("Force interrupted in its first epoch: error %v, want an InterruptedError", err)
	}
	dirsnap.RequireSame(t, "Force interrupted in its first epoch", dir, before)
	if aside[LastCheckpointFile] != before[LastCheckpointFile] || aside[ResultFile] != before[ResultFile] {
		t.Errorf("while the forced run trained, the earlier run's files were not kept aside: %d files", len(aside))
	}
}

// lineHook is a log writer that calls do once, when a written line contains match.
type lineHook struct {
	match string
	do    func()
	done  bool
}

func (h *lineHook) Write(p []byte) (int, error) {
	if !h.done && bytes.Contains(p, []byte(h.match)) {
		h.done = true
		h.do()
	}
	return len(p), nil
}

// A forced run replaces the earlier run once it has checkpointed: the directory then
// holds the new run only.
func TestForceReplacesTheEarlierRun(t *testing.T) {
	dir, cfg, ds, _ := finishedRun(t)
	cfg.Seed++
	res := train(t, cfg, ds, TrainOptions{OutDir: dir, Force: true})
	info, err := ReadCheckpointInfo(filepath.Join(dir, LastCheckpointFile))
	if err != nil || info.Config.Seed != cfg.Seed || info.Epoch != res.Epochs {
		t.Errorf("last.ckpt after Force: seed %d epoch %d (%v), want the new run's %d and %d", info.Config.Seed, info.Epoch, err, cfg.Seed, res.Epochs)
	}
	for _, name := range []string{rundir.AsideDir, rundir.AsideMovingDir} {
		if _, err := os.Stat(filepath.Join(dir, name)); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s left after a forced run (%v)", name, err)
		}
	}
}

// A forced run killed at any step of its replacement is completed or undone by the next
// run that opens the directory: files caught moving aside go back; the earlier run
// comes back while the new one has no last.ckpt, and goes once it has.
func TestKilledReplacementIsUndoneOrCompletedOnOpen(t *testing.T) {
	dir, _, _, before := finishedRun(t)
	reopen := func() {
		t.Helper()
		rd, err := openRunDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		if err := rd.Close(); err != nil {
			t.Fatal(err)
		}
	}
	// Killed while moving aside: two files moved, the rest not yet.
	moving := filepath.Join(dir, rundir.AsideMovingDir)
	if err := os.Mkdir(moving, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{LastCheckpointFile, BestCheckpointFile} {
		if err := os.Rename(filepath.Join(dir, name), filepath.Join(moving, name)); err != nil {
			t.Fatal(err)
		}
	}
	reopen()
	dirsnap.RequireSame(t, "killed while moving aside", dir, before)

	// Killed after the new run wrote its logs and best.ckpt, before its last.ckpt.
	rd, err := openRunDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	files, _ := ExistingRunFiles(dir)
	if err := rd.Replace(files); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{LogFile, CSVLogFile, BestCheckpointFile} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("new run"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rd.Abandon() // a kill: no restore
	reopen()
	dirsnap.RequireSame(t, "killed before the new run's first checkpoint", dir, before)

	// Killed after the new run's first last.ckpt, before the earlier run was removed.
	if rd, err = openRunDir(dir); err != nil {
		t.Fatal(err)
	}
	files, _ = ExistingRunFiles(dir)
	if err := rd.Replace(files); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, LastCheckpointFile), []byte("new checkpoint"), 0o644); err != nil {
		t.Fatal(err)
	}
	rd.Abandon()
	reopen()
	dirsnap.RequireSame(t, "killed after the new run's first checkpoint", dir, map[string]string{LastCheckpointFile: "new checkpoint"})
}

// Resume in a directory without last.ckpt that holds another run's best.ckpt and
// result.json is refused with a message naming them, and touches nothing — whether the
// files are of other data or of this very run (whose last.ckpt is gone).
func TestResumeWithoutLastCheckpointRefusesFilesItDidNotWrite(t *testing.T) {
	dir, cfg, ds, _ := finishedRun(t)
	if err := os.Remove(filepath.Join(dir, LastCheckpointFile)); err != nil {
		t.Fatal(err)
	}
	before := dirsnap.Take(t, dir)
	other := tinyNodeDataset(8, 22)
	other.Name = "other"
	for _, tc := range []struct {
		ds   *data.Dataset
		want []string
	}{
		{other, []string{BestCheckpointFile + " (it was made on other data", ResultFile, LogFile}},
		// best.ckpt is of this run's first epoch, which a fresh start writes again; its
		// logs and result are not.
		{ds, []string{ResultFile, LogFile + " (it logs epochs)"}},
	} {
		_, err := Train(context.Background(), cfg, tc.ds, TrainOptions{OutDir: dir, Resume: true})
		for _, want := range append(tc.want, "no last.ckpt") {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("resume on %s over a run without last.ckpt: error %v, want a refusal naming %q", tc.ds.Name, err, want)
			}
		}
		dirsnap.RequireSame(t, "refused resume on "+tc.ds.Name, dir, before)
	}
}

// What a run killed in its first epoch, between best.ckpt and last.ckpt, leaves (logs
// without an epoch, best.ckpt of epoch 1) is its own: Resume starts afresh over it, and
// ends as an uninterrupted run.
func TestResumeAfterAKillBeforeTheFirstCheckpointStartsAfresh(t *testing.T) {
	ds := tinyNodeDataset(8, 23)
	cfg := tinyConfig()
	full := train(t, cfg, ds, TrainOptions{OutDir: t.TempDir()})
	dir := t.TempDir()
	train(t, cfg, ds, TrainOptions{OutDir: dir, StopAfter: 1})
	for _, name := range []string{LastCheckpointFile, ResultFile} {
		if err := os.Remove(filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{LogFile, CSVLogFile} {
		path := filepath.Join(dir, name)
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		header, _, _ := bytes.Cut(raw, []byte("\n"))
		if err := os.WriteFile(path, append(header, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	resumed := train(t, cfg, ds, TrainOptions{OutDir: dir, Resume: true})
	requireSameHistory(t, full.History, resumed.History)
}

// requireSameHistory compares the losses and metrics of two runs' epochs.
func requireSameHistory(t *testing.T, want, got []EpochStats) {
	t.Helper()
	if len(want) != len(got) {
		t.Fatalf("%d epochs, want %d", len(got), len(want))
	}
	for i := range want {
		a, b := want[i], got[i]
		if math.Abs(a.TrainLoss-b.TrainLoss) > 1e-6 || math.Abs(a.ValLoss-b.ValLoss) > 1e-6 || a.ValMetric != b.ValMetric || a.Best != b.Best {
			t.Errorf("epoch %d: %+v, want %+v", i+1, b, a)
		}
	}
}

// A run whose context ends says which epoch it was in and what last.ckpt holds, leaves
// no temporary file and no result, and resumes to the uninterrupted run's result.
func TestInterruptedRunSaysWhatWasSavedAndResumes(t *testing.T) {
	ds := tinyNodeDataset(8, 24)
	cfg := tinyConfig()
	cfg.Epochs = 3
	full := train(t, cfg, ds, TrainOptions{OutDir: t.TempDir()})
	dir := t.TempDir()
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	hook := lineHook{match: "epoch 1/3", do: stop}
	_, err := Train(ctx, cfg, ds, TrainOptions{OutDir: dir, Log: &hook})
	var ie *InterruptedError
	if !errors.As(err, &ie) || ie.Epoch != 2 || ie.Saved != 1 || !errors.Is(err, context.Canceled) ||
		!strings.Contains(err.Error(), "interrupted in epoch 2") || !strings.Contains(err.Error(), filepath.Join(dir, LastCheckpointFile)+" holds epoch 1") {
		t.Fatalf("interrupted run: error %v, want one saying epoch 2 was interrupted and last.ckpt holds epoch 1", err)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp") || e.Name() == ResultFile {
			t.Errorf("%s left by an interrupted run", e.Name())
		}
	}
	resumed := train(t, cfg, ds, TrainOptions{OutDir: dir, Resume: true})
	requireSameHistory(t, full.History, resumed.History)
}

// killChildEnv makes the test binary a training run (see TestMain) into the directory
// it names: the run of killedRunConfig, resumed where it stopped.
const killChildEnv = "GEXPH_TEST_KILLED_RUN_DIR"

// killedRunConfig is the config and data set of the run the kill test interrupts.
func killedRunConfig() (Config, *data.Dataset) {
	cfg := tinyConfig()
	cfg.Epochs, cfg.Dropout = 6, 0.1
	return cfg, tinyNodeDataset(16, 25)
}

// killChildForceEnv makes the child of killChildEnv replace the run in its directory
// (Force) with a run of the next seed instead of resuming.
const killChildForceEnv = "GEXPH_TEST_KILLED_RUN_FORCE"

// runKilledRunChild is the child process of the kill tests.
func runKilledRunChild(dir string) int {
	cfg, ds := killedRunConfig()
	opts := TrainOptions{OutDir: dir, Resume: true}
	if os.Getenv(killChildForceEnv) != "" {
		cfg.Seed++
		opts = TrainOptions{OutDir: dir, Force: true}
	}
	if _, err := Train(context.Background(), cfg, ds, opts); err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		return 1
	}
	return 0
}

// A run killed (SIGKILL) at random points, several times, leaves a directory whose
// every file parses, and Resume then ends it as the uninterrupted run ends.
func TestKilledAtRandomPointsResumesToTheUninterruptedResult(t *testing.T) {
	if testing.Short() {
		t.Skip("trains several runs in child processes")
	}
	start := time.Now()
	full := t.TempDir()
	if err := childRun(t, full, 0); err != nil {
		t.Fatalf("uninterrupted run: %v", err)
	}
	whole := time.Since(start)
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 28))
	for i := 0; i < 6; i++ {
		delay := time.Duration(rng.Float64() * 0.6 * float64(whole)) // resumed runs are shorter
		if err := childRun(t, dir, delay); err != nil {
			t.Fatalf("run killed after %v: %v", delay, err)
		}
		if err := VerifyRunDir(dir); err != nil {
			t.Errorf("killed after %v: %v", delay, err)
		}
		info, err := ReadCheckpointInfo(filepath.Join(dir, LastCheckpointFile))
		t.Logf("killed after %v: last.ckpt holds epoch %d (%v)", delay, info.Epoch, err)
	}
	if err := childRun(t, dir, 0); err != nil {
		t.Fatalf("resumed run: %v", err)
	}
	want, got := readResult(t, full), readResult(t, dir)
	requireSameHistory(t, want.History, got.History)
	for name, a := range checkpointFloats(t, filepath.Join(full, LastCheckpointFile)) {
		if d := maxAbsDiff(a, checkpointFloats(t, filepath.Join(dir, LastCheckpointFile))[name]); d > 1e-6 {
			t.Errorf("variable %s differs by %g from the uninterrupted run's", name, d)
		}
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp") || strings.HasPrefix(e.Name(), rundir.AsideDir) {
			t.Errorf("%s left after the resumed run", e.Name())
		}
	}
}

// A forced run killed (SIGKILL) at random points leaves, once the directory is opened
// again, one whole run: the earlier one, byte for byte, or the new one with its
// checkpoint — never a mixture, never nothing.
func TestForcedRunKilledAtRandomPointsLeavesOneWholeRun(t *testing.T) {
	if testing.Short() {
		t.Skip("trains several runs in child processes")
	}
	earlier := t.TempDir()
	if err := childRun(t, earlier, 0); err != nil {
		t.Fatalf("earlier run: %v", err)
	}
	before := dirsnap.Take(t, earlier)
	start := time.Now()
	if err := childRun(t, t.TempDir(), 0, killChildForceEnv+"=1"); err != nil {
		t.Fatalf("forced run: %v", err)
	}
	whole := time.Since(start)
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 29))
	for i := 0; i < 6; i++ {
		dir := t.TempDir()
		for name, content := range before {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		delay := time.Duration(rng.Float64() * float64(whole))
		if err := childRun(t, dir, delay, killChildForceEnv+"=1"); err != nil {
			t.Fatalf("forced run killed after %v: %v", delay, err)
		}
		rd, err := openRunDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		rd.Close()
		info, err := ReadCheckpointInfo(filepath.Join(dir, LastCheckpointFile))
		switch {
		case err != nil:
			t.Errorf("killed after %v: %v", delay, err)
		case info.Config.Seed == tinyConfig().Seed:
			dirsnap.RequireSame(t, "forced run killed after "+delay.String(), dir, before)
		default:
			if err := VerifyRunDir(dir); err != nil {
				t.Errorf("killed after %v: %v", delay, err)
			}
			if _, err := os.Stat(filepath.Join(dir, rundir.AsideDir)); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("killed after %v: the replaced run is still there beside the new run's epoch %d", delay, info.Epoch)
			}
		}
		t.Logf("killed after %v: last.ckpt holds epoch %d of seed %d", delay, info.Epoch, info.Config.Seed)
	}
}

// childRun runs the kill tests' training run into dir in a child process, killed after
// delay (0: run to the end), with env added to the environment.
func childRun(t *testing.T, dir string, delay time.Duration, env ...string) error {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run", "^$")
	cmd.Env = append(append(os.Environ(), killChildEnv+"="+dir), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return err
	}
	if delay > 0 {
		timer := time.AfterFunc(delay, func() { cmd.Process.Signal(syscall.SIGKILL) })
		defer timer.Stop()
	}
	err := cmd.Wait()
	var ee *exec.ExitError
	if delay > 0 && errors.As(err, &ee) && !ee.Exited() {
		return nil // killed
	}
	if err != nil {
		return errors.New(err.Error() + ": " + stderr.String())
	}
	return nil
}

// readResult reads a run directory's result.json.
func readResult(t *testing.T, dir string) Result {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, ResultFile))
	if err != nil {
		t.Fatal(err)
	}
	var res Result
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatalf("%s: %v", ResultFile, err)
	}
	return res
}

// TestVerifyRunDirNamesWhatDoesNotParse checks the check itself on a finished run: it
// passes, then names a log with a torn line, a damaged checkpoint and a stray file.
func TestVerifyRunDirNamesWhatDoesNotParse(t *testing.T) {
	dir, _, _, _ := finishedRun(t)
	if err := VerifyRunDir(dir); err != nil {
		t.Fatalf("a finished run: %v", err)
	}
	if err := VerifyRunDir(filepath.Join(dir, "absent")); err != nil {
		t.Errorf("a missing directory: %v", err)
	}
	appendTo := func(name, text string) {
		f, err := os.OpenFile(filepath.Join(dir, name), os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.WriteString(text); err != nil {
			t.Fatal(err)
		}
	}
	appendTo(LogFile, `{"epoch": 3, "train_lo`)
	appendTo(BestCheckpointFile, "x")
	appendTo("notes.txt", "mine")
	err := VerifyRunDir(dir)
	for _, name := range []string{LogFile, BestCheckpointFile, "notes.txt"} {
		if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, name)) {
			t.Errorf("error %v does not name %s", err, name)
		}
	}
}

// epochLines calls at with each epoch number a run's progress log prints ("epoch k/N").
type epochLines struct{ at func(epoch int) }

func (w epochLines) Write(p []byte) (int, error) {
	var k, n int
	if _, err := fmt.Sscanf(strings.TrimSpace(string(p)), "epoch %d/%d", &k, &n); err == nil {
		w.at(k)
	}
	return len(p), nil
}

// With CheckpointEvery longer than the run, last.ckpt is written after the first epoch,
// at each new best epoch (with best.ckpt) and after the last only: as each epoch ends it
// holds the latest of epoch 1 and the best epochs before. A copy of the run directory
// taken while it lags (a run killed there) resumes to the uninterrupted run's history and
// weights; an interruption between epochs writes the epoch it held back and says so.
func TestCheckpointEveryHoldsBackLastCheckpointAndResumesToTheSameRun(t *testing.T) {
	ds := tinyNodeDataset(8, 26)
	cfg := tinyConfig()
	cfg.Epochs = 12
	fullDir := t.TempDir()
	full := train(t, cfg, ds, TrainOptions{OutDir: fullDir})
	want, lagging := heldLastCheckpoints(full.History)
	if lagging == 0 || slices.Max(want) < 2 {
		t.Fatalf("last.ckpt would hold %v: no best epoch after the first, or no lag, to test", want)
	}

	dir, killed := t.TempDir(), t.TempDir()
	held := make([]int, cfg.Epochs+1)
	log := epochLines{at: func(k int) {
		if k == 1 {
			return
		}
		info, err := ReadCheckpointInfo(filepath.Join(dir, LastCheckpointFile))
		if err != nil {
			t.Errorf("reading last.ckpt as epoch %d ended: %v", k, err)
			return
		}
		held[k] = info.Epoch
		if k != lagging {
			return
		}
		copyRunFiles(t, dir, killed)
	}}
	res := train(t, cfg, ds, TrainOptions{OutDir: dir, CheckpointEvery: time.Hour, Log: log})
	if !slices.Equal(held, want) {
		t.Fatalf("last.ckpt held epochs %v as epochs 0… ended, want %v (epoch 1 and the best epochs only)", held, want)
	}
	requireSameHistory(t, full.History, res.History)
	if info, err := ReadCheckpointInfo(filepath.Join(dir, LastCheckpointFile)); err != nil || info.Epoch != cfg.Epochs {
		t.Fatalf("last.ckpt after the run: epoch %d (%v), want %d", info.Epoch, err, cfg.Epochs)
	}

	resumed := train(t, cfg, ds, TrainOptions{OutDir: killed, Resume: true, CheckpointEvery: time.Hour})
	requireSameHistory(t, full.History, resumed.History)
	wantVars := checkpointFloats(t, filepath.Join(fullDir, LastCheckpointFile))
	for name, got := range checkpointFloats(t, filepath.Join(killed, LastCheckpointFile)) {
		if d := maxAbsDiff(wantVars[name], got); d != 0 {
			t.Errorf("variable %s of the run resumed from epoch %d differs by %g from the uninterrupted run's", name, want[lagging], d)
		}
	}

	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	interrupted := t.TempDir()
	stopAfter := epochLines{at: func(k int) {
		if k == lagging {
			stop()
		}
	}}
	_, err := Train(ctx, cfg, ds, TrainOptions{OutDir: interrupted, CheckpointEvery: time.Hour, Log: stopAfter})
	var ie *InterruptedError
	if !errors.As(err, &ie) || ie.Epoch != lagging+1 || ie.Saved != lagging {
		t.Fatalf("run interrupted after epoch %d: error %v, want one saying epoch %d was interrupted and last.ckpt holds epoch %d", lagging, err, lagging+1, lagging)
	}
	if info, err := ReadCheckpointInfo(filepath.Join(interrupted, LastCheckpointFile)); err != nil || info.Epoch != lagging {
		t.Errorf("last.ckpt of the interrupted run: epoch %d (%v), want %d", info.Epoch, err, lagging)
	}
}

// heldLastCheckpoints returns, for a run of these epochs with a CheckpointEvery longer
// than the run, the epoch last.ckpt holds as each epoch k ends (before its own write):
// the latest of epoch 1 and the best epochs before k; and the first epoch at whose end
// it lags by more than one epoch (0: none).
func heldLastCheckpoints(history []EpochStats) (held []int, lagging int) {
	held = make([]int, len(history)+1)
	for k := 2; k <= len(history); k++ {
		held[k] = held[k-1]
		if k == 2 || history[k-2].Best {
			held[k] = k - 1
		}
		if lagging == 0 && held[k] < k-1 {
			lagging = k
		}
	}
	return held, lagging
}

// copyRunFiles copies a run directory's checkpoints and logs, as a run killed now
// would leave them.
func copyRunFiles(t *testing.T, from, to string) {
	t.Helper()
	for _, name := range []string{LastCheckpointFile, BestCheckpointFile, LogFile, CSVLogFile} {
		raw, err := os.ReadFile(filepath.Join(from, name))
		if err != nil {
			t.Errorf("copying the run directory: %v", err)
			return
		}
		if err := os.WriteFile(filepath.Join(to, name), raw, 0o644); err != nil {
			t.Error(err)
		}
	}
}
