package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"sync"
	"time"

	"github.com/gexph/gexph/tools/repl"
)

// replWorkerEnv marks the worker process that runs a script (see runScriptWorker) or an
// interactive session (see superviseREPL) for a supervising `gexph repl`.
const replWorkerEnv = "GEXPH_REPL_WORKER"

func runREPL(args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help") {
		io.WriteString(stdout, "Usage: gexph repl [-echo] [script.go | -]\n\n"+
			"Runs a Go interpreter (yaegi) with the standard library, gonum's mat and gexph's\n"+
			"packages. With a script file it runs the file; with '-' or piped input it runs\n"+
			"standard input; on a terminal it starts an interactive session. Both start with\n"+
			"fmt, strings, math, gexph, data, expander, spectral, plots and a few more imported\n"+
			"(a script keeps the names it imports or declares itself). Scripts and\n"+
			"sessions run in a process of their own, so that a failure no Go code can recover\n"+
			"from (a panic in a goroutine, an allocation beyond memory) is reported as an\n"+
			"error, without the runtime's dump of every goroutine's stack (GOTRACEBACK=all\n"+
			"shows it); an interactive session then starts afresh.\n"+
			"\nFlags:\n"+
			"  -echo\n    \tprint the value of each expression statement of a script, as a session does\n")
		writeExamples(stdout, "repl")
		return nil
	}
	if os.Getenv(replWorkerEnv) != "" {
		return repl.Run(args, os.Stdin, stdout, stderr)
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("repl: %w", err)
	}
	if len(args) == 0 && repl.IsTerminal(os.Stdin) {
		return superviseREPL(func() *exec.Cmd { return replWorker(exe, args, stdout, stderr) }, stderr)
	}
	watch := &crashWatcher{w: stderr}
	return runScriptWorker(replWorker(exe, args, stdout, watch), watch)
}

// replWorker returns the command of a worker process: this program run again as
// `gexph repl ARGS` with replWorkerEnv set, standard input shared, and GOTRACEBACK=none
// unless the user chose a traceback, so that a panic in a goroutine or a fatal runtime
// error ends it with its message only.
func replWorker(exe string, args []string, stdout, stderr io.Writer) *exec.Cmd {
	cmd := exec.Command(exe, append([]string{"repl"}, args...)...)
	cmd.Env = append(os.Environ(), replWorkerEnv+"=1")
	if _, ok := os.LookupEnv("GOTRACEBACK"); !ok {
		cmd.Env = append(cmd.Env, "GOTRACEBACK=none")
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, stdout, stderr
	return cmd
}

// runScriptWorker runs a script's worker to its end and returns nil when it succeeded,
// an exitError with its exit code when it reported its own error (already printed), and
// an error naming the runtime's message when the Go runtime ended it (a panic in a
// goroutine, which no interpreter can recover, or a fatal error such as memory
// exhausted). Interrupts reach the worker, not this process.
func runScriptWorker(cmd *exec.Cmd, watch *crashWatcher) error {
	interrupts := make(chan os.Signal, 1)
	signal.Notify(interrupts, os.Interrupt)
	defer signal.Stop(interrupts)
	err := cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		if err != nil {
			return fmt.Errorf("repl: starting the script's process: %w", err)
		}
		return nil
	}
	if msg := watch.crash(); msg != "" {
		return fmt.Errorf("repl: the script ended with %q (%v): a panic in a goroutine or a fatal runtime error ends the process whatever the interpreter recovers", msg, exit)
	}
	if exit.ExitCode() < 0 {
		return fmt.Errorf("repl: the script's process was ended by a signal (%v), as the kernel does to a process beyond memory", exit)
	}
	return exitError{code: exit.ExitCode()}
}

// crashWatcher passes a worker's standard error through and remembers the Go
// runtime's last crash message: a line that starts with "panic: " or "fatal error: ".
type crashWatcher struct {
	w    io.Writer
	mu   sync.Mutex
	line []byte
	last string
}

// Write passes p through and scans it for crash messages.
func (c *crashWatcher) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, b := range p {
		if b != '\n' {
			if len(c.line) < 4096 {
				c.line = append(c.line, b)
			}
			continue
		}
		if line := string(c.line); strings.HasPrefix(line, "panic: ") || strings.HasPrefix(line, "fatal error: ") {
			c.last = line
		}
		c.line = c.line[:0]
	}
	return c.w.Write(p)
}

// crash returns the last crash message seen, or "".
func (c *crashWatcher) crash() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if line := string(c.line); c.last == "" && (strings.HasPrefix(line, "panic: ") || strings.HasPrefix(line, "fatal error: ")) {
		return line
	}
	return c.last
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
		fmt.Fprintf(stderr, "\ngexph repl: the session died (%v): a panic in a goroutine or an allocation beyond memory ends the process, see the message above (GOTRACEBACK=all adds the goroutines' stacks).\n"+
			"gexph repl: a new session starts; the definitions of the old one are gone.\n", exit)
	}
}
