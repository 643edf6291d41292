package suite

import (
	"encoding/csv"
	"fmt"
	"io"
	"os"

	"github.com/gexph/gexph/internal/atomicfile"
)

// writeCSVFile writes rows to path atomically.
func writeCSVFile(path string, rows [][]string) error {
	return atomicfile.Write(path, func(w io.Writer) error {
		cw := csv.NewWriter(w)
		if err := cw.WriteAll(rows); err != nil {
			return err
		}
		return cw.Error()
	})
}

// readCSVFile reads every record of the CSV file at path; errors name the file.
func readCSVFile(path string) ([][]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	records, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return records, nil
}
