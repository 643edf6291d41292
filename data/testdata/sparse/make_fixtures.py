#!/usr/bin/env python3
"""Writes the sparse-matrix fixtures of data/sparse_test.go (run once; the Go tests read
the files and never need Python). Each case is a file as scipy writes it and the dense
matrix scipy reads from it (toarray(): duplicates summed), or a gnn-benchmark-style
archive and the graph PyTorch Geometric reads from it (torch_geometric.io.npz):
x = attr.todense(), x[x > 0] = 1; edges = adj.tocoo() without self loops, undirected.

Run from this directory: python3 make_fixtures.py (numpy and scipy needed; written
with scipy 1.10.1, Debian's python3-scipy)."""
import numpy as np
import scipy.sparse as sp

# A 4×5 matrix stored with unsorted column indices, duplicates (summed by scipy),
# an explicit zero, a pair that cancels and an empty row.
ROWS = np.array([2, 0, 0, 3, 0, 2, 3, 3, 0], dtype=np.int64)
COLS = np.array([1, 4, 1, 0, 4, 3, 2, 0, 2], dtype=np.int64)
VALS = np.array([5, 1, 2, 7, -1, 0, 3, -7, 4], dtype=np.float64)
SHAPE = (4, 5)


def csr_raw(rows, cols, vals, shape, idx_dtype, data_dtype):
    """A csr_matrix holding the entries in the given order within each row (unsorted,
    duplicates kept), as scipy keeps a matrix built from (data, indices, indptr)."""
    order = np.argsort(rows, kind="stable")
    indptr = np.zeros(shape[0] + 1, dtype=idx_dtype)
    np.add.at(indptr, rows + 1, 1)
    indptr = np.cumsum(indptr).astype(idx_dtype)
    m = sp.csr_matrix((vals[order].astype(data_dtype), cols[order].astype(idx_dtype), indptr), shape=shape)
    assert not m.has_sorted_indices or not m.has_canonical_format
    return m


def save_case(name, m):
    sp.save_npz(name + ".npz", m, compressed=False)
    back = sp.load_npz(name + ".npz")
    np.save(name + ".dense.npy", back.toarray().astype(np.float64))


def main():
    save_case("csr_unsorted_dups_i32_f64", csr_raw(ROWS, COLS, VALS, SHAPE, np.int32, np.float64))
    save_case("csr_unsorted_dups_i64_f32", csr_raw(ROWS, COLS, VALS, SHAPE, np.int64, np.float32))
    # CSC: the transpose's CSR arrays, so columns are the compressed axis.
    t = csr_raw(COLS, ROWS, VALS, SHAPE[::-1], np.int32, np.int64)
    csc = sp.csc_matrix((t.data, t.indices, t.indptr), shape=SHAPE)
    save_case("csc_unsorted_dups_i32_i64", csc)
    coo = sp.coo_matrix((VALS.astype(np.float32), (ROWS.astype(np.int32), COLS.astype(np.int32))), shape=SHAPE)
    save_case("coo_dups_i32_f32", coo)
    coo16 = sp.coo_matrix((VALS.astype(np.int16), (ROWS, COLS)), shape=(6, 7))  # shape beyond the entries
    save_case("coo_dups_i64_i16_wide", coo16)
    boolm = sp.coo_matrix((np.array([True, True, False, True]), (np.array([0, 0, 1, 2]), np.array([1, 1, 0, 2]))), shape=(3, 3))
    sp.save_npz("coo_dups_bool.npz", boolm, compressed=True)  # deflated entries
    np.save("coo_dups_bool.dense.npy", sp.load_npz("coo_dups_bool.npz").toarray().astype(np.float64))
    empty = sp.csr_matrix((3, 2), dtype=np.float32)
    save_case("csr_empty", empty)

    # A gnn-benchmark-style archive: 6 nodes; the adjacency as CSC with duplicates, a
    # self loop and one direction only of some edges; the features as COO with
    # duplicates, counts, a cancelling pair and a negative value.
    adj_rows = np.array([1, 0, 2, 1, 3, 4, 4, 5, 2, 2], dtype=np.int32)
    adj_cols = np.array([0, 1, 1, 2, 2, 3, 3, 4, 2, 0], dtype=np.int32)
    adj = sp.csc_matrix((np.ones(10, dtype=np.float32), *_unsorted_csc(adj_rows, adj_cols, 6)), shape=(6, 6))
    attr = sp.coo_matrix((np.array([1, 2, 3, -3, 1, 1, -2, 4, 1], dtype=np.float64),
                          (np.array([0, 0, 1, 1, 2, 3, 4, 5, 5]), np.array([3, 0, 2, 2, 1, 1, 0, 3, 3]))), shape=(6, 4))
    labels = np.array([0, 1, 1, 0, 2, 2], dtype=np.int64)
    np.savez("gnn_formats.npz", adj_format=np.array(b"csc"), adj_data=adj.data, adj_indices=adj.indices,
             adj_indptr=adj.indptr.astype(np.int64), adj_shape=np.array(adj.shape),
             attr_format=np.array("coo"), attr_data=attr.data, attr_row=attr.row, attr_col=attr.col,
             attr_shape=np.array(attr.shape), labels=labels)
    # What PyG reads (torch_geometric.io.npz.parse_npz, scipy only).
    x = attr.todense()
    x[x > 0] = 1
    a = adj.tocoo()
    edges = {(int(r), int(c)) for r, c in zip(a.row, a.col) if r != c}
    edges |= {(c, r) for r, c in edges}
    np.save("gnn_formats.x.npy", np.asarray(x, dtype=np.float64))
    np.save("gnn_formats.edges.npy", np.array(sorted(edges), dtype=np.int64))


def _unsorted_csc(rows, cols, n):
    """data-less (indices, indptr) of a CSC matrix keeping the entries' order within
    each column (unsorted row indices, duplicates kept)."""
    order = np.argsort(cols, kind="stable")
    indptr = np.zeros(n + 1, dtype=np.int32)
    np.add.at(indptr, cols + 1, 1)
    return rows[order], np.cumsum(indptr).astype(np.int32)


if __name__ == "__main__":
    main()
