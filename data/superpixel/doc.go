// Package superpixel turns images into superpixel graphs as the benchmarking-gnns
// MNIST and CIFAR10 superpixel data sets do (Dwivedi et al., data/superpixels.py, on
// the superpixels of Knyazev et al.'s extract_superpixels.py), with plain slices in and
// out; package data assembles the results into its Graph and Dataset types and reads
// the MNIST and CIFAR-10 files.
//
// SLIC re-implements skimage.segmentation.slic (scikit-image 0.14–0.16, the versions
// behind those data sets) with its defaults, quirks included, so that the
// segmentations match the reference label for label.
//
// A Builder holds the settings of one data set (a Spec: MNISTSpec or CIFAR10Spec, or
// your own) and reusable buffers, and builds the graph of one image at a time:
//
//   - Segment cuts the image (pixel values /255, as float32) by SLIC, asking for
//     MaxSegments+ExtraQuery segments and one fewer each time until at most
//     MaxSegments come out; colour images are segmented in CIE Lab, as skimage's slic
//     converts 3-channel images by default;
//   - NodeFeatures gives each superpixel Channels+2 features: the mean of each
//     channel of the /255 image (grey, or R, G, B), then the centre of mass as
//     row/Side and column/Side (the reference's (row, col) order);
//   - KNNEdges links each node to its Neighbours (8) most similar nodes (all others
//     when the graph has at most 9 nodes) under A = ½(K + Kᵀ), K_ij = exp(−(d_ij/σ_i)²),
//     d the Euclidean distance between centres and σ_i the mean distance from node i
//     to its 8 nearest nodes (1 when the graph has fewer than 9 nodes), plus 1e−8;
//     each directed edge i → j carries the weight A_ij. The reference picks 8 of the 9
//     most similar nodes through an argpartition artefact; here the 8 most similar
//     are taken, ties to the lower index. A single-node graph gets one self loop of
//     weight 0, as in the reference;
//   - Graph does all three; nodes are kept in SLIC label order (the reference
//     shuffles them).
//
// The output depends only on the image and the Spec, never on the Builder's history,
// so images can be spread over goroutines, one Builder each.
package superpixel
