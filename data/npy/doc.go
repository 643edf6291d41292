// Package npy reads NumPy's .npy arrays and .npz archives of them, without Python.
//
// Read and ReadFile decode one .npy array (format versions 1, 2 and 3) as NumPy reads
// it: booleans, signed and unsigned integers of 1, 2, 4 or 8 bytes, 16-, 32- or 64-bit
// floats and bytes or unicode strings, little- or big-endian, in C or Fortran order.
// The Array keeps the data little-endian in C order and converts it on demand with
// Array.Int64s, Array.Int32s, Array.Float32s and Array.Strings.
//
// ReadNPZ and ReadNPZFile read a .npz archive (stored or deflated zip entries named
// "NAME.npy"), or a .zip archive holding a single .npz, as distributed for instance by
// the gnn-benchmark data sets. Entries that hold well-formed arrays of a kind the
// package does not read — pickled Python objects, structured types — are listed in
// NPZ.Skipped with an *UnsupportedArrayError
// instead of failing the whole archive; any other defect is an error naming the archive
// and the entry.
//
// The package never unpickles anything: object arrays are reported, not decoded.
package npy
