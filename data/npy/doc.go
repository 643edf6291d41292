// Package npy reads NumPy's .npy arrays and .npz archives of them, without Python.
//
// Read and ReadFile decode one .npy array (format versions 1, 2 and 3): booleans,
// signed and unsigned integers of 1, 2, 4 or 8 bytes and 32- or 64-bit floats, stored
// little-endian (or as single bytes) in C order, which is what NumPy writes on every
// common machine. The Array keeps the raw data and converts it on demand with
// Array.Int64s, Array.Int32s and Array.Float32s.
//
// ReadNPZ and ReadNPZFile read a .npz archive (stored or deflated zip entries named
// "NAME.npy"), or a .zip archive holding a single .npz, as distributed for instance by
// the gnn-benchmark data sets. Entries that hold well-formed arrays of a kind the
// package does not read — pickled Python objects, strings, big-endian or
// Fortran-ordered data — are listed in NPZ.Skipped with an *UnsupportedArrayError
// instead of failing the whole archive; any other defect is an error naming the archive
// and the entry.
//
// The package never unpickles anything: object arrays are reported, not decoded.
package npy
