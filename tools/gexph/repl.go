package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"time"

	"github.com/gexph/gexph/tools/repl"
)

// replWorkerEnv marks the process that runs an interactive session for a supervising
// `gexph repl` (see superviseREPL).
const replWorkerEnv = "GEXPH_REPL_WORKER"

func runREPL(args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help") {
		io.WriteString(stdout, "Usage: gexph repl [script.go | -]\n\n"+
			"Runs a Go interpreter (yaegi) with the standard library, gonum's mat and gexph's\n"+
			"packages. With a script file it runs the file; with '-' or piped input it runs\n"+
			"standard input; on a terminal it starts an interactive session, in a process of\n"+
			"its own, so that a failure no Go code can recover from (a panic in a goroutine,\n"+
			"an allocation beyond memory) is reported and a fresh session starts.\n")
		return nil
	}
	if len(args) == 0 && repl.IsTerminal(os.Stdin) && os.Getenv(replWorkerEnv) == "" {
		exe, err := os.Executable()
		if err != nil {
			return fmt.Errorf("repl: %w", err)
		}
		return superviseREPL(func() *exec.Cmd {
			cmd := exec.Command(exe, "repl")
			cmd.Env = append(os.Environ(), replWorkerEnv+"=1")
			cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
			return cmd
		}, stderr)
	}
	return repl.Run(args, os.Stdin, stdout, stderr)
}

// superviseREPL runs sessions made by newSession one after the other until one ends
// normally (exit status 0: the user left). A session that dies — a panic in a goroutine
// or the runtime out of memory end the process whatever the interpreter recovers — is
// reported on stderr and replaced by a fresh one; sessions that die within a second of
// starting three times in a row end the supervision with an error, since a fresh one
// would die as well. Interrupts reach the session, not the supervisor.
func superviseREPL(newSession func() *exec.Cmd, stderr io.Writer) error {
	interrupts := make(chan os.Signal, 1)
	signal.Notify(interrupts, os.Interrupt)
	defer signal.Stop(interrupts)
	quickDeaths := 0
	for {
		start := time.Now()
		err := newSession().Run()
		if err == nil {
			return nil
		}
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			return fmt.Errorf("repl: starting a session: %w", err)
		}
		if time.Since(start) < time.Second {
			quickDeaths++
		} else {
			quickDeaths = 0
		}
		if quickDeaths >= 3 {
			return fmt.Errorf("repl: the session died at start three times (%v); see the messages above", exit)
		}
		fmt.Fprintf(stderr, "\ngexph repl: the session died (%v): a panic in a goroutine or an allocation beyond memory ends the process, see the message above.\n"+
			"gexph repl: a new session starts; the definitions of the old one are gone.\n", exit)
	}
}
