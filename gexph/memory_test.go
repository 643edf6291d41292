package gexph

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gexph/gexph/data"
	"github.com/gexph/gexph/layers"
)

func TestDenseAttentionBytes(t *testing.T) {
	cfg, err := Preset("computers")
	if err != nil {
		t.Fatal(err)
	}
	huge := &data.Dataset{Name: "huge", Task: data.NodeClassification, NumClasses: 2, Transductive: true,
		Graphs: []data.Graph{{NumNodes: 1000000, NodeLabels: make([]int32, 1000000)}},
		Split:  data.Split{Train: []int{0}, Val: []int{1}, Test: []int{2}}}
	if b := DenseAttentionBytes(cfg, huge); b != 0 {
		t.Errorf("Exphormer: %v bytes of dense scores, want 0", b)
	}
	cfg.Attention = AttnFull
	// 4 layers × 4 tensors × 2 heads × (10⁶)² × 4 bytes.
	if b, want := DenseAttentionBytes(cfg, huge), 4*4*2*1e12*4.0; b != want {
		t.Errorf("transductive: %v bytes, want %v", b, want)
	}
	batched := &data.Dataset{Name: "b", Graphs: []data.Graph{{NumNodes: 10}, {NumNodes: 30}, {NumNodes: 20}}}
	cfg.BatchSize = 2 // two graphs of at most 30 nodes: n = 60
	if b, want := DenseAttentionBytes(cfg, batched), 4*4*2*3600*4.0; b != want {
		t.Errorf("batched: %v bytes, want %v", b, want)
	}
	if layers.MemTotalMB() == 0 {
		t.Skip("no /proc/meminfo")
	}
	if err := checkMemory(cfg, huge); !errors.Is(err, ErrOutOfMemory) || !strings.Contains(err.Error(), `"huge"`) {
		t.Errorf("10⁶ nodes of full attention: %v, want ErrOutOfMemory naming the data set", err)
	}
	if err := checkMemory(cfg, batched); err != nil {
		t.Errorf("60 nodes: %v", err)
	}
	// Train refuses before building anything.
	if _, err := Train(t.Context(), cfg, huge, TrainOptions{}); !errors.Is(err, ErrOutOfMemory) {
		t.Errorf("Train: %v, want ErrOutOfMemory", err)
	}
}

func TestSummarizeOutOfMemoryRows(t *testing.T) {
	csv := strings.Join(append(csvHeader, statusColumn), ",") + "\n" +
		"cora_exphormer_s1,cora,exphormer,1,100,10,5,0.8,0.82,accuracy,10,1,50,ok\n" +
		"computers_mpnn+full_s1,computers,mpnn+full,1,0,0,0,0,0,accuracy,0,0,0,out-of-memory\n" +
		"computers_mpnn+full_s2,computers,mpnn+full,2,0,0,0,0,0,accuracy,0,0,0,out-of-memory\n"
	path := filepath.Join(t.TempDir(), "results.csv")
	if err := os.WriteFile(path, []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	rows, err := Summarize(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[1].Runs != 0 || rows[1].OutOfMemory != 2 || rows[0].OutOfMemory != 0 || rows[0].Runs != 1 {
		t.Fatalf("rows %+v", rows)
	}
	var buf bytes.Buffer
	if err := WriteResultsMarkdown(&buf, rows, ResultsMeta{Suite: SuiteTransductive}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "| computers | mpnn+full | accuracy | 2 | OOM |") {
		t.Errorf("markdown lacks the OOM row:\n%s", buf.String())
	}
	if lines := TransductiveTargets(rows); len(lines) != 2 || !strings.Contains(lines[0], "not run yet") {
		t.Errorf("targets %q", lines)
	}
	// A report whose only computers rows are refused has no computers figure, and no error.
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, SuiteTransductive), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, SuiteTransductive, "results.csv"), []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteReport(root, filepath.Join(root, "RESULTS.md")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "figures", "transductive_computers.png")); err == nil {
		t.Error("a figure of refused runs only")
	}
	bad := strings.Replace(csv, ",ok\n", ",fine\n", 1)
	if err := os.WriteFile(path, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Summarize(path); err == nil || !strings.Contains(err.Error(), `"fine"`) {
		t.Errorf("unknown status: %v", err)
	}
}
