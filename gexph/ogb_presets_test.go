package gexph

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gexph/gexph/data"
)

// writeOGBLayout writes the graph of the transductive data set ds in the OGB node
// property layout (raw/*.csv.gz and split/<split>/*.csv.gz) under dir/name.
func writeOGBLayout(t *testing.T, dir, name, split string, ds *data.Dataset) string {
	t.Helper()
	g := &ds.Graphs[0]
	root := filepath.Join(dir, name)
	lines := func(n int, line func(i int) string) string {
		var sb strings.Builder
		for i := range n {
			sb.WriteString(line(i))
			sb.WriteByte('\n')
		}
		return sb.String()
	}
	ints := func(idx []int) string { return lines(len(idx), func(i int) string { return fmt.Sprint(idx[i]) }) }
	cols := g.Node.Cols
	files := map[string]string{
		"raw/edge.csv.gz":          lines(len(g.Src), func(i int) string { return fmt.Sprintf("%d,%d", g.Src[i], g.Dst[i]) }),
		"raw/node-label.csv.gz":    lines(g.NumNodes, func(i int) string { return fmt.Sprint(g.NodeLabels[i]) }),
		"raw/num-node-list.csv.gz": fmt.Sprintln(g.NumNodes),
		"raw/node-feat.csv.gz": lines(g.NumNodes, func(i int) string {
			return strings.Trim(fmt.Sprint(g.Node.Dense[i*cols:(i+1)*cols]), "[]")
		}),
		"split/" + split + "/train.csv.gz": ints(ds.Split.Train),
		"split/" + split + "/valid.csv.gz": ints(ds.Split.Val),
		"split/" + split + "/test.csv.gz":  ints(ds.Split.Test),
	}
	for rel, text := range files {
		text = strings.ReplaceAll(text, " ", ",")
		var buf bytes.Buffer
		w := gzip.NewWriter(&buf)
		w.Write([]byte(text))
		w.Close()
		path := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestOGBPresetsTrainOnFilesInTheOGBLayout(t *testing.T) {
	src := plantedDataset(t, 300)
	for _, tc := range []struct{ preset, dir, split string }{
		{"ogbn-arxiv", "ogbn_arxiv", "time"},
		{"ogbn-products", "ogbn_products", "sales_ranking"},
	} {
		t.Run(tc.preset, func(t *testing.T) {
			dir := writeOGBLayout(t, t.TempDir(), tc.dir, tc.split, src)
			ds, err := data.Load("ogb:"+dir, data.LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if ds.Name != tc.preset || ds.Graphs[0].NumNodes != 300 || len(ds.Split.Val) != len(src.Split.Val) {
				t.Fatalf("loaded %q with %d nodes and %d validation nodes", ds.Name, ds.Graphs[0].NumNodes, len(ds.Split.Val))
			}
			cfg, err := Preset(tc.preset)
			if err != nil {
				t.Fatal(err)
			}
			cfg.Epochs = 1
			res, err := Train(context.Background(), cfg, ds, TrainOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if res.Epochs != 1 || !(res.ValMetric > 0) {
				t.Errorf("result %+v", res)
			}
		})
	}
}
