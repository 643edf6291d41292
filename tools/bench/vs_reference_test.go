package bench

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestVsReferenceRefusesWhatIsMissing runs tools/bench/vs_reference.sh without the
// paper's code, without gexph's command and with a bad round count: each stops at once
// with status 2 and a message that names what is missing and how to get it.
func TestVsReferenceRefusesWhatIsMissing(t *testing.T) {
	script, err := filepath.Abs("vs_reference.sh")
	if err != nil {
		t.Fatal(err)
	}
	fake := filepath.Join(t.TempDir(), "gexph")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		env  []string
		args []string
		want string
	}{
		{[]string{"REF=/nonexistent", "GEXPH=" + fake}, nil, "no paper's code in /nonexistent: bash ../shared/peers/stage.sh"},
		{[]string{"REF=/nonexistent", "GEXPH=/nonexistent/gexph"}, nil, "/nonexistent/gexph is missing: make build"},
		{[]string{"GEXPH=" + fake}, []string{"0"}, `ROUNDS must be a positive number, not "0"`},
	} {
		cmd := exec.Command("bash", append([]string{script}, c.args...)...)
		cmd.Env = append(os.Environ(), c.env...)
		out, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 2 || !strings.Contains(string(out), c.want) {
			t.Errorf("%v %v: %v, output %q; want status 2 and %q", c.env, c.args, err, out, c.want)
		}
	}
}
