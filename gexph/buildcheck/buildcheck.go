// Package buildcheck reads a program's build information: the toolkit's version
// (Version, which run logs record) and what makes gexph's pure-Go backend slow
// (Warnings: the compute module linked without gexph's patches, or a build without
// GOEXPERIMENT=simd). gexph.SetupRuntime prints the warnings; the gexph command's
// version output lists both.
package buildcheck

import (
	"fmt"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
)

// computeModule is the module of the compute backends, which gexph builds against a
// patched copy of (third_party/compute).
const computeModule = "github.com/gomlx/compute"

// gexphModule is this toolkit's module path.
const gexphModule = "github.com/gexph/gexph"

// Warnings returns what a program's build information (runtime/debug.ReadBuildInfo)
// says that makes gexph's pure-Go backend slow, one message per finding, each saying
// what to change:
//
//   - github.com/gomlx/compute linked unpatched: gexph's go.mod replaces it with the
//     patched copy in its third_party/compute, but a replace directive applies only in
//     the main module's go.mod, so a program that imports gexph links the upstream module
//     (a PATTERN training step about 1.6× slower) unless its own go.mod has the replace
//     line the message gives;
//   - built without GOEXPERIMENT=simd: the backend's SIMD kernels are left out (about 4×
//     slower).
//
// It returns nil for a build with neither problem (the gexph command built with make).
func Warnings(bi *debug.BuildInfo) []string {
	if bi == nil {
		return nil
	}
	var out []string
	if msg := unpatchedComputeWarning(bi); msg != "" {
		out = append(out, msg)
	}
	if !buildHasSIMD(bi) {
		out = append(out, "built without GOEXPERIMENT=simd, which leaves out the pure-Go backend's SIMD kernels (about 4× slower): build with GOEXPERIMENT=simd go build (the gexph command: make build)")
	}
	return out
}

// buildHasSIMD tells whether the build's GOEXPERIMENT setting includes simd.
func buildHasSIMD(bi *debug.BuildInfo) bool {
	for _, s := range bi.Settings {
		if s.Key == "GOEXPERIMENT" {
			return slices.Contains(strings.Split(s.Value, ","), "simd")
		}
	}
	return false
}

// unpatchedComputeWarning returns the warning of a build that links computeModule
// without a replace, with the replace line to add, or "".
func unpatchedComputeWarning(bi *debug.BuildInfo) string {
	var compute, self *debug.Module
	for _, d := range bi.Deps {
		switch d.Path {
		case computeModule:
			compute = d
		case gexphModule:
			self = d
		}
	}
	if compute == nil || compute.Replace != nil {
		return ""
	}
	return fmt.Sprintf("%s %s is linked unpatched (a replace in gexph's go.mod does not apply to a program that imports gexph): "+
		"the pure-Go backend's PATTERN step is about 1.6× slower. Add to your go.mod:\n\t%s\n"+
		"(gexph's patched copy, a module of its own: see third_party/compute/PATCHES.md)",
		compute.Path, compute.Version, computeReplaceLine(self))
}

// computeReplaceLine is the replace directive that links gexph's patched copy of
// computeModule: the copy beside the gexph module the program builds with when that is a
// local directory (a replace of gexph itself), else in a checkout of gexph to make.
func computeReplaceLine(self *debug.Module) string {
	// A directory replacement has no version: "(devel)" in the build information.
	if self != nil && self.Replace != nil && (self.Replace.Version == "" || self.Replace.Version == "(devel)") {
		return fmt.Sprintf("replace %s => %s", computeModule, filepath.ToSlash(filepath.Join(self.Replace.Path, "third_party", "compute")))
	}
	version := "of the version you use"
	if self != nil {
		version = self.Version
	}
	return fmt.Sprintf("replace %s => /path/to/gexph/third_party/compute\n"+
		"where /path/to/gexph is a checkout of gexph %s (git clone https://%s /path/to/gexph)", computeModule, version, gexphModule)
}

// Version returns the toolkit's version as the build recorded it: the module version
// (or "devel") and, where the build kept them, the commit and "+dirty" for a build of a
// modified tree.
func Version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	v := bi.Main.Version
	if v == "" || v == "(devel)" {
		v = "devel"
	}
	rev, dirty := "", false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev != "" {
		v += " " + rev[:min(12, len(rev))]
		if dirty {
			v += "+dirty"
		}
	}
	return v
}
