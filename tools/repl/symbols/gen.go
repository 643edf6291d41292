package symbols

// The symbol tables are regenerated with `make repl-symbols` (or `go generate` in this
// folder once the packages build). The yaegi command is run from the yaegi module
// version pinned in the main go.mod, so extraction and interpretation always use the same
// yaegi release and it works offline from the module cache. The extractor skips generic
// functions and types: the packages export non-generic wrappers for what the REPL needs.

//go:generate go run github.com/traefik/yaegi/cmd/yaegi extract -name symbols gonum.org/v1/gonum/mat
//go:generate go run github.com/traefik/yaegi/cmd/yaegi extract -name symbols github.com/gexph/gexph/spectral github.com/gexph/gexph/expander github.com/gexph/gexph/data github.com/gexph/gexph/data/npy github.com/gexph/gexph/data/smiles github.com/gexph/gexph/data/superpixel github.com/gexph/gexph/plots github.com/gexph/gexph/gexph github.com/gexph/gexph/gexph/compare github.com/gexph/gexph/gexph/buildcheck github.com/gexph/gexph/gexph/metrics github.com/gexph/gexph/gexph/torchexport github.com/gexph/gexph/suite
