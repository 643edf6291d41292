package main

import (
	"io"
	"os"

	"github.com/gexph/gexph/tools/repl"
)

func runREPL(args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help") {
		io.WriteString(stdout, "Usage: gexph repl [script.go | -]\n\n"+
			"Runs a Go interpreter (yaegi) with the standard library, gonum's mat and gexph's\n"+
			"packages. With a script file it runs the file; with '-' or piped input it runs\n"+
			"standard input; on a terminal it starts an interactive session.\n")
		return nil
	}
	return repl.Run(args, os.Stdin, stdout, stderr)
}
