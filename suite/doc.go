// Package suite reproduces the experiments of the Exphormer paper with package gexph
// and writes the results report (docs/RESULTS.md in the repository).
//
// Suites list the paper's experiments as named training runs (TransductiveSuite,
// InductiveBudgetSuite, InductiveSuite); RunSuite trains them, resumably, recording one
// JSON file per run and a CSV. The scaling suite (ScalingPoints, RunScalingSuite,
// MeasureScaling) measures seconds per epoch and peak memory of Exphormer against full
// attention on planted-partition graphs of 10³ to 10⁶ nodes. The search suite
// (SearchGrid, RunSearchSuite, ChooseSearch) tries learning rates and epoch counts
// around a preset on one seed, selects on the validation metric alone and runs the
// selected setting on every seed. WriteReport turns the records of every suite under a
// results root into one Markdown report with figures, the paper's figures beside ours
// and the reproduction's targets checked, opening with a line per data set of the
// paper's tables that says what the records hold of it and why not more, and closing
// with the reduced-budget smoke tests; the gexph command's reproduce subcommand drives
// all of it.
//
// A run that would not fit in the machine's memory (gexph.ErrOutOfMemory) is recorded
// as out of memory, as the paper's tables mark "OOM", and the suite goes on.
package suite
