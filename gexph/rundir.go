package gexph

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gexph/gexph/internal/rundir"
)

// A run directory (TrainOptions.OutDir) keeps these promises:
//
//   - One run at a time: Train locks the directory before it reads or writes a file
//     there (internal/rundir); a second run fails at once and touches nothing.
//   - Nothing is touched before everything is checked: the config, the data, the memory
//     estimate, the model and, when resuming, the checkpoint's config, data and
//     variables are all validated before the first file is written, moved or removed.
//   - A fresh run never overwrites an earlier one unless told to (Force), and then only
//     once it has a checkpoint of its own: the earlier run's files are moved aside
//     (rundir.AsideDir) and removed after the new run's first last.ckpt, or moved back
//     when the new run ends before it — also when it was killed, by the next run that
//     opens the directory (rundir.Open).
//   - Resume continues last.ckpt; without one it starts afresh only over files that a
//     fresh start of the same run would write again (see foreignFiles).
//   - Files are replaced atomically and the directory is synced after every rename, so
//     a kill or a power cut leaves each file whole: the previous version or the new one.

// ErrRunExists is returned (wrapped) by Train when TrainOptions.OutDir holds a run that
// the options neither resume nor replace.
var ErrRunExists = errors.New("the directory holds a run")

// ExistingRunFiles returns the names of RunFiles present in dir, in RunFiles' order
// (none for a directory that does not exist).
func ExistingRunFiles(dir string) ([]string, error) { return rundir.Existing(dir, RunFiles()) }

// runDir is a run's locked output directory (internal/rundir: the lock, the replaced
// run aside, recovery from a kill), and what a run's files are checked against before
// a run starts there.
type runDir struct{ *rundir.Dir }

// openRunDir creates and locks dir, completes what a killed run left unfinished (a
// replacement is committed by a last.ckpt) and removes the temporary files of
// interrupted writes.
func openRunDir(dir string) (*runDir, error) {
	d, err := rundir.Open(dir, RunFiles(), LastCheckpointFile)
	if err != nil {
		return nil, err
	}
	return &runDir{d}, nil
}

// runIdentity is what a run's files are checked against: its config, data set and the
// data's fingerprint.
type runIdentity struct {
	cfg         Config
	dataset     string
	fingerprint string
}

// start inspects the locked directory before a run of id writes anything and returns
// the checkpoint to continue (opts.Resume and a last.ckpt) and the files of an earlier
// run that a fresh start replaces (opts.Force). It refuses, touching nothing: a fresh
// run over an earlier one without Force (ErrRunExists); a checkpoint made with another
// config, on other data or of more epochs than id's config has; and a resumption without last.ckpt over files that a fresh
// start of this run would not write again (foreignFiles).
func (d *runDir) start(opts TrainOptions, id runIdentity) (*loadedCheckpoint, []string, error) {
	files, err := ExistingRunFiles(d.Root())
	if err != nil {
		return nil, nil, err
	}
	if !opts.Resume {
		if len(files) > 0 && !opts.Force {
			return nil, nil, fmt.Errorf("%s: %w (%s): continue it with Resume (gexph train -resume), or replace it with Force (gexph train -force)",
				d.Root(), ErrRunExists, strings.Join(files, ", "))
		}
		return nil, files, nil
	}
	ck, err := readCheckpoint(d.Path(LastCheckpointFile))
	switch {
	case err == nil:
		if changes := runChanges(ck.info.Config, id.cfg); len(changes) > 0 {
			return nil, nil, fmt.Errorf("the checkpoint in %s was made with another config (%s; only epochs and patience may change)", d.Root(), strings.Join(changes, ", "))
		}
		if err := sameDataset(ck.info, id.dataset, id.fingerprint); err != nil {
			return nil, nil, fmt.Errorf("the checkpoint in %s %w", d.Root(), err)
		}
		if ck.info.Epoch > id.cfg.Epochs {
			// Its result.json would hold more epochs than its config's.
			return nil, nil, fmt.Errorf("the checkpoint in %s has run %d epochs, more than the %d this run asks for (epochs, -epochs): resume with -epochs %d or more",
				d.Root(), ck.info.Epoch, id.cfg.Epochs, ck.info.Epoch)
		}
		return ck, nil, nil
	case !errors.Is(err, fs.ErrNotExist):
		return nil, nil, err
	}
	if foreign := d.foreignFiles(files, id); len(foreign) > 0 {
		return nil, nil, fmt.Errorf("%s has no %s to continue, and starting afresh would overwrite files this run did not write: %s; move them away or pick another directory (or replace them: Force, gexph train -force)",
			d.Root(), LastCheckpointFile, strings.Join(foreign, "; "))
	}
	return nil, nil, nil
}

// foreignFiles returns, each with its reason, the files among files (of a directory
// without last.ckpt) that a fresh start of run id would not write again as they are:
// all but what a run of id killed before its first last.ckpt leaves — logs without an
// epoch, whose header (if any) is id's, and a best.ckpt of id's first epoch.
func (d *runDir) foreignFiles(files []string, id runIdentity) []string {
	var foreign []string
	for _, name := range files {
		var why string
		switch name {
		case BestCheckpointFile:
			why = d.foreignCheckpoint(id)
		case LogFile:
			why = d.foreignLog(id)
		case CSVLogFile:
			why = d.foreignCSV()
		default:
			why = "the result of a finished run"
		}
		if why != "" {
			foreign = append(foreign, name+" ("+why+")")
		}
	}
	return foreign
}

// foreignCheckpoint says why best.ckpt is not one that run id wrote in its first
// epoch, or returns "".
func (d *runDir) foreignCheckpoint(id runIdentity) string {
	info, err := ReadCheckpointInfo(d.Path(BestCheckpointFile))
	switch {
	case err != nil:
		return err.Error()
	case len(runChanges(info.Config, id.cfg)) > 0:
		return "made with another config: " + strings.Join(runChanges(info.Config, id.cfg), ", ")
	case sameDataset(info, id.dataset, id.fingerprint) != nil:
		return "it " + sameDataset(info, id.dataset, id.fingerprint).Error()
	case info.Epoch != 1:
		return fmt.Sprintf("epoch %d of a run whose %s is gone", info.Epoch, LastCheckpointFile)
	}
	return ""
}

// foreignLog says why log.jsonl is not a log that run id began (a header of id and no
// epoch), or returns "".
func (d *runDir) foreignLog(id runIdentity) string {
	raw, err := os.ReadFile(d.Path(LogFile))
	if err != nil {
		return err.Error()
	}
	first, rest, _ := bytes.Cut(raw, []byte("\n"))
	var hdr LogHeader
	dec := json.NewDecoder(bytes.NewReader(first))
	dec.DisallowUnknownFields()
	switch {
	case len(bytes.TrimSpace(rest)) > 0:
		return "it logs epochs"
	case dec.Decode(&hdr) != nil || hdr.Config.Metric == "":
		return "its first line is not a run's header"
	case hdr.Dataset != id.dataset || hdr.DatasetFingerprint != "" && hdr.DatasetFingerprint != id.fingerprint:
		return fmt.Sprintf("a run on data set %q (fingerprint %s)", hdr.Dataset, hdr.DatasetFingerprint)
	case len(runChanges(hdr.Config, id.cfg)) > 0:
		return "a run with another config: " + strings.Join(runChanges(hdr.Config, id.cfg), ", ")
	}
	return ""
}

// foreignCSV says why log.csv holds more than a header row, or returns "".
func (d *runDir) foreignCSV() string {
	f, err := os.Open(d.Path(CSVLogFile))
	if err != nil {
		return err.Error()
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	rows := 0
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) > 0 {
			rows++
		}
	}
	if sc.Err() != nil {
		return sc.Err().Error()
	}
	if rows > 1 {
		return "it logs epochs"
	}
	return ""
}

// InterruptedError is Train's error when its context ends the run (a signal, a
// deadline): what the run directory holds and how far the run got.
type InterruptedError struct {
	// Epoch is the epoch that was running; Saved the epochs that OutDir's last.ckpt
	// holds (0: none).
	Epoch, Saved int
	// OutDir is the run directory ("" when the run wrote none).
	OutDir string
	// Restored tells that the run had replaced an earlier one (Force) without writing a
	// checkpoint of its own, and that the earlier run's files are back.
	Restored bool
	// Err is the context's error.
	Err error
}

// Error says what was saved: "interrupted in epoch 7: DIR/last.ckpt holds epoch 6".
func (e *InterruptedError) Error() string {
	msg := fmt.Sprintf("interrupted in epoch %d", e.Epoch)
	switch {
	case e.OutDir == "":
		return msg + " (no output directory: nothing saved)"
	case e.Restored:
		return fmt.Sprintf("%s, before its first checkpoint: the earlier run's files are back in %s", msg, e.OutDir)
	case e.Saved == 0:
		return fmt.Sprintf("%s, before its first checkpoint: %s holds no epoch", msg, e.OutDir)
	}
	return fmt.Sprintf("%s: %s holds epoch %d", msg, filepath.Join(e.OutDir, LastCheckpointFile), e.Saved)
}

// Unwrap returns the context's error.
func (e *InterruptedError) Unwrap() error { return e.Err }

// VerifyRunDir checks that every file of the run directory dir parses — the checkpoints
// (with their CRC), each JSON value of log.jsonl and result.json, the CSV log — and that
// it holds nothing else but the lock, temporary files of interrupted writes and the
// aside folder of a replaced run. What a run leaves, killed at any point, always passes.
// A missing directory passes (nothing was written); errors name each file.
func VerifyRunDir(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("run directory: %w", err)
	}
	var errs []error
	for _, e := range entries {
		if err := verifyRunFile(filepath.Join(dir, e.Name())); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", filepath.Join(dir, e.Name()), err))
		}
	}
	return errors.Join(errs...)
}

// verifyRunFile checks one entry of a run directory (see VerifyRunDir).
func verifyRunFile(path string) error {
	switch name := filepath.Base(path); name {
	case LastCheckpointFile, BestCheckpointFile:
		_, err := ReadCheckpointInfo(path)
		return err
	case LogFile, ResultFile:
		return decodeEachJSON(path)
	case CSVLogFile:
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		_, err = csv.NewReader(f).ReadAll()
		return err
	default:
		if rundir.OwnEntry(name) {
			return nil
		}
		return errors.New("not a file of a run")
	}
}

// decodeEachJSON decodes every JSON value of a file (one, or one per line).
func decodeEachJSON(path string) error {
	raw, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	for {
		var v any
		if err := dec.Decode(&v); errors.Is(err, io.EOF) {
			return nil
		} else if err != nil {
			return err
		}
	}
}

// openOutDir creates and locks opts.OutDir (nil without one).
func openOutDir(opts TrainOptions) (*runDir, error) {
	if opts.OutDir == "" {
		return nil, nil
	}
	rd, err := openRunDir(opts.OutDir)
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	return rd, nil
}

// prepareFiles readies the checked run directory for the run's first write: the files of
// an earlier run that the run replaces are moved aside; the result of a run that it
// continues goes, so that result.json is never older than the checkpoints.
func prepareFiles(rd *runDir, ck *loadedCheckpoint, replaced []string) error {
	switch {
	case rd == nil:
	case len(replaced) > 0:
		return rd.Replace(replaced)
	case ck != nil:
		if err := os.Remove(rd.Path(ResultFile)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

// checkpointSaver writes a run's checkpoints after its epochs
// (TrainOptions.CheckpointEvery): best.ckpt and last.ckpt at every new best epoch,
// last.ckpt also after the first epoch of the call and whenever every has passed since
// its last write, and flush writes the epochs it held back. So best.ckpt never holds an
// epoch that last.ckpt has not reached: a run resumed from last.ckpt, with fewer epochs
// even, never ends with a best.ckpt of an epoch it did not run.
type checkpointSaver struct {
	rd    *runDir
	m     *Model
	every time.Duration
	// saved is the epoch last.ckpt holds; at is when this call wrote it (zero: not yet,
	// so the first epoch writes it and commits a run that replaces an earlier one).
	saved int
	at    time.Time
}

// epoch writes the checkpoints due after the epoch info ends with (st its statistics).
// Should the run stop between the two writes, last.ckpt still holds an epoch before,
// and a resumed run repeats the epochs after it (the same seed gives the same epochs)
// and writes both again.
func (s *checkpointSaver) epoch(info CheckpointInfo, st EpochStats) error {
	if s.rd == nil {
		return nil
	}
	if st.Best {
		if err := saveCheckpoint(s.rd.Path(BestCheckpointFile), info, s.m.store, true); err != nil {
			return err
		}
	} else if s.every > 0 && time.Since(s.at) < s.every {
		return nil
	}
	return s.save(info)
}

// flush writes last.ckpt if it holds an earlier epoch than info's, which must be the
// model's state at the end of info's epoch (between epochs, never within one).
func (s *checkpointSaver) flush(info CheckpointInfo) error {
	if s.rd == nil || s.saved >= info.Epoch {
		return nil
	}
	return s.save(info)
}

// save writes last.ckpt, which commits a run that replaces an earlier one.
func (s *checkpointSaver) save(info CheckpointInfo) error {
	if err := saveCheckpoint(s.rd.Path(LastCheckpointFile), info, s.m.store, false); err != nil {
		return err
	}
	s.saved, s.at = info.Epoch, time.Now()
	return s.rd.Commit()
}

// sameDataset checks that a checkpoint was made on the data set named name with the
// given fingerprint, and returns an error completing "the checkpoint … " otherwise.
// Checkpoints of older versions, without a fingerprint, are checked by name.
func sameDataset(ck CheckpointInfo, name, fingerprint string) error {
	switch {
	case ck.DatasetFingerprint != "" && ck.DatasetFingerprint != fingerprint:
		return fmt.Errorf("was made on other data (%q, fingerprint %s) than this run's (%q, fingerprint %s)", ck.Dataset, ck.DatasetFingerprint, name, fingerprint)
	case ck.DatasetFingerprint == "" && ck.Dataset != name:
		return fmt.Errorf("was made on data set %q, not %q", ck.Dataset, name)
	}
	return nil
}
