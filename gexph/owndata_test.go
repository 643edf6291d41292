package gexph

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/gexph/gexph/data"
)

// TestCheckpointRecordsDataSpecAndPredictNamesOriginalIDs trains on an edge list given
// by a relative path with LargestComponent: the checkpoint records the absolute spec
// and the transform in its config, and Predict's "unlabelled" and "all" name the nodes'
// rows in nodes.csv. Train, given a data set and no spec, records none (as older
// checkpoints, which eval finds by name).
func TestCheckpointRecordsDataSpecAndPredictNamesOriginalIDs(t *testing.T) {
	root := t.TempDir()
	t.Chdir(root)
	os.Mkdir("semi", 0o755)
	// The pair {0,1} and the cycle 2…7; nodes 3 and 6 unlabelled.
	os.WriteFile(filepath.Join("semi", "nodes.csv"), []byte("0,1\n1,0\n0,2\n-1,1\n1,0\n0,3\n-1,1\n1,0\n"), 0o644)
	os.WriteFile(filepath.Join("semi", "edges.csv"), []byte("0,1\n2,3\n3,4\n4,5\n5,6\n6,7\n7,2\n"), 0o644)
	cfg, err := Preset("node")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Layers, cfg.HiddenDim, cfg.Heads, cfg.Epochs, cfg.PE = 1, 8, 2, 1, "none"
	out := filepath.Join(root, "run")
	opts := TrainOptions{OutDir: out, Data: data.LoadOptions{LargestComponent: true}}
	if _, err := TrainFromSpec(context.Background(), "edgelist:semi", cfg, opts); err != nil {
		t.Fatal(err)
	}
	ckpt := filepath.Join(out, BestCheckpointFile)
	info, err := ReadCheckpointInfo(ckpt)
	if err != nil {
		t.Fatal(err)
	}
	if want := "edgelist:" + filepath.Join(root, "semi"); info.DatasetSpec != want || !info.Config.LargestComponent || info.Dataset != "semi" {
		t.Errorf("checkpoint spec %q (largest component %v), name %q; want %q with the transform", info.DatasetSpec, info.Config.LargestComponent, info.Dataset, want)
	}
	ds, err := data.Load(info.DatasetSpec, DataOptions(info.Config, data.LoadOptions{}))
	if err != nil {
		t.Fatal(err)
	}
	for split, want := range map[string][]int64{"unlabelled": {3, 6}, "all": {2, 3, 4, 5, 6, 7}} {
		preds, err := Predict(context.Background(), ckpt, ds, split, ModelOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var ids []int64
		for _, p := range preds {
			ids = append(ids, p.ID)
		}
		if !reflect.DeepEqual(ids, want) {
			t.Errorf("split %s: ids %v, want %v", split, ids, want)
		}
	}
	if _, err := Predict(context.Background(), ckpt, ds, "everything", ModelOptions{}); err == nil {
		t.Error("split \"everything\" accepted")
	}
	plain := filepath.Join(root, "plain")
	if _, err := Train(context.Background(), cfg, ds, TrainOptions{OutDir: plain}); err != nil {
		t.Fatal(err)
	}
	if info, err := ReadCheckpointInfo(filepath.Join(plain, BestCheckpointFile)); err != nil || info.DatasetSpec != "" {
		t.Errorf("Train without DataSpec: spec %q, %v; want none", info.DatasetSpec, err)
	}
}
