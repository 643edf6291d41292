// Package gexph trains and evaluates Exphormer graph transformers (Shirzad et al.,
// "Exphormer: Sparse Transformers for Graphs", ICML 2023) with GoMLX: configurations
// and the paper's presets, model building, batching, training, evaluation, metrics and
// checkpoints.
//
// # Model
//
// A model is the GraphGPS architecture with Exphormer attention: input encoders (a
// linear map of dense or sparse node features, summed embeddings of categorical ones, a
// learned vector when there are none; the same for edge features), an optional
// positional encoding (LapPE or RWSE concatenated to the node embedding, ESLapPE used by
// the GatedGCN gates), learned virtual-node states, Config.Layers GPS layers (a local
// MPNN and a global attention, each with residual and normalisation, then a feed-forward
// block) and a prediction head (pooled per graph for graph tasks). Exphormer attends
// over the interaction graph H of each graph: its own edges (with their encoded
// features), a random regular expander and edges to virtual nodes (both with learned
// type embeddings). The layers come from package layers, the interaction graphs from
// package expander, the data sets from package data.
//
// With a preset's configuration on data shaped like the paper's, the parameter counts
// equal the paper's: PATTERN 91,045, CLUSTER 282,970, MNIST 111,015, CIFAR10 111,095,
// COCO-SP 498,993, Computers 302,570, Photo 202,632, CS 686,103, Physics 801,293.
//
// # Training
//
// Train runs AdamW with the cosine schedule and linear warm-up of GraphGPS (stepped per
// epoch, see LearningRate), gradient clipping by global norm, early stopping on the
// validation metric, the test metric of the best validation epoch, checkpoints after
// every epoch (exact resumption: weights, optimizer state, batch-norm statistics and
// random state) and of the best epoch, a progress line per epoch and a JSON log.
// Inductive data sets train on mini-batches of graphs (their disjoint union, with each
// graph's expander and virtual nodes) shuffled per epoch by the seed; transductive ones
// train full-batch with the loss on the training nodes. A run is a function of its
// Config (including the seed) and data set.
//
// Linear maps start from PyTorch's initialisation (layers.FanInUniform), with which
// the paper's hyperparameters were tuned. A run that would not fit in the process's
// memory budget (sysinfo.MemoryBudget: the machine's memory, or an address-space limit)
// is refused with ErrOutOfMemory before anything is built: its full attention
// (DenseAttentionBytes), prediction head (HeadBytes), weights (ParamBytes), positional
// encodings (PEBytes) and training step (StepBytes) are estimated first.
//
// Backends: the pure-Go backend by default; "xla:cpu" or "xla:/path/to/pjrt_plugin.so"
// in binaries built with the "xla" build tag. Batches of graphs are padded to a few
// shapes planned for the run so that compiled programs are reused; padding changes no
// value the model computes.
//
// # Using it
//
// Preset gives a configuration, data.Load a data set, Train a Result (Example shows a
// whole run); Evaluate scores a checkpoint; Model, BuildBatch and Batch are the pieces
// underneath, for programs that run their own loops. TrainFromSpec does the loading and
// training in one call, as the gexph command does. The "demo" preset trains a small
// model on a PATTERN subset in a few minutes on a laptop CPU. Importing the package has
// no side effects; Train, NewModel and Evaluate prepare the process's runtime on their
// first call (SetupRuntime, which programs may call first thing themselves) and warn
// once on standard error about a build that makes the pure-Go backend slow
// (package gexph/buildcheck).
//
// Beside it: gexph/metrics (the metrics, on the host), gexph/posenc (positional
// encodings of a data set's graphs), gexph/compare (one model on two backends, tensor
// by tensor: `gexph compare`), gexph/torchexport (weights and a batch for a PyTorch
// port: `gexph export`) and gexph/buildcheck. The reproduction suites of the
// paper's experiments and the results report live in package suite, which builds on
// this one.
package gexph
