package gexph

// The test data of this package, for its external tests (package gexph_test: the tests
// that use packages importing gexph, such as gexph/compare and gexph/torchexport).
var (
	TinyConfig              = tinyConfig
	TinyNodeDataset         = tinyNodeDataset
	TinyGraphDataset        = tinyGraphDataset
	TinyTransductiveDataset = tinyTransductiveDataset
	CategoricalEdges        = categoricalEdges
	CheckpointFloats        = checkpointFloats
)
