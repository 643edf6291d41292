"""A pure-PyTorch stand-in for the parts of torch_sparse 0.6.13 that PyG 2.0.4 imports.

The GPU machine has PyTorch but not torch_sparse (a C++/CUDA extension). PyG 2.0.4
imports torch_sparse in many modules, for its SparseTensor type and a few functions on
edge-index form. Nothing on the reference harness's path builds a SparseTensor (the
Exphormer models pass edge_index tensors), so:

- coalesce, transpose and spspmm, which work on (index, value) pairs, are implemented
  here with torch_sparse's semantics (tests: tools/gpu/ref/shims_test.py);
- SparseTensor is a type that isinstance() checks can name but that cannot be built, and
  the functions that take a SparseTensor (matmul, set_diag, fill_diag, mul, cat, sum,
  masked_select_nnz) raise NotImplementedError saying so. A path that needs them is not
  one the harness can time with this shim.
"""
from typing import Optional, Tuple

import torch

from torch_scatter import scatter

__version__ = "0.6.13+gexph.shim"

_NO_SPARSE_TENSOR = ("torch_sparse.%s needs a SparseTensor, which the gexph harness's "
                     "torch_sparse shim does not provide (tools/gpu/ref/shims)")


class SparseTensor(object):
    """A name for isinstance() checks and TorchScript signatures (PyG 2.0.4 scripts
    functions overloaded on it): the shim cannot build sparse tensors. TorchScript
    compiles every method of the class, so both are typed and scriptable."""

    def __init__(
        self,
        row: Optional[torch.Tensor] = None,
        rowptr: Optional[torch.Tensor] = None,
        col: Optional[torch.Tensor] = None,
        value: Optional[torch.Tensor] = None,
        sparse_sizes: Optional[Tuple[Optional[int], Optional[int]]] = None,
        is_sorted: bool = False,
        trust_data: bool = False,
    ):
        raise NotImplementedError("torch_sparse.SparseTensor is not provided by the gexph harness's "
                                  "torch_sparse shim (tools/gpu/ref/shims)")

    def size(self, dim: int) -> int:
        raise NotImplementedError("torch_sparse.SparseTensor is not provided by the gexph harness's "
                                  "torch_sparse shim (tools/gpu/ref/shims)")


def _needs_sparse_tensor(name):
    def refuse(*args, **kwargs):
        raise NotImplementedError(_NO_SPARSE_TENSOR % name)
    refuse.__name__ = name
    refuse.__doc__ = "Not provided: torch_sparse.%s takes a SparseTensor." % name
    return refuse


matmul = _needs_sparse_tensor("matmul")
set_diag = _needs_sparse_tensor("set_diag")
fill_diag = _needs_sparse_tensor("fill_diag")
mul = _needs_sparse_tensor("mul")
cat = _needs_sparse_tensor("cat")
sum = _needs_sparse_tensor("sum")  # noqa: A001 (torch_sparse's name)
masked_select_nnz = _needs_sparse_tensor("masked_select_nnz")


def coalesce(index, value, m, n, op="add"):
    """The entries of the m×n sparse matrix (index [2, E], value [E, ...] or None)
    sorted by (row, column), with the values of repeated positions reduced by op
    ("add", "sum", "mean", "min", "max", "mul")."""
    if index.numel() == 0:
        return index.view(2, 0), value
    key = index[0] * n + index[1]
    uniq, inverse = torch.unique(key, sorted=True, return_inverse=True)
    out = torch.stack([torch.div(uniq, n, rounding_mode="floor"), uniq % n], dim=0)
    if value is None:
        return out, None
    if uniq.numel() == key.numel() and bool((key[1:] > key[:-1]).all()):
        return out, value  # already coalesced: torch_sparse returns the values as they are
    return out, scatter(value, inverse, 0, None, uniq.numel(), op)


def transpose(index, value, m, n, coalesced=True):
    """The transpose (n×m) of the m×n sparse matrix (index, value), coalesced unless
    coalesced is False."""
    index = torch.stack([index[1], index[0]], dim=0)
    if coalesced:
        index, value = coalesce(index, value, n, m)
    return index, value


def spspmm(indexA, valueA, indexB, valueB, m, k, n, coalesced=False):
    """The product of the sparse m×k matrix A and the sparse k×n matrix B, as (index,
    value) of a coalesced m×n matrix."""
    if coalesced:
        indexA, valueA = coalesce(indexA, valueA, m, k)
        indexB, valueB = coalesce(indexB, valueB, k, n)
    a = torch.sparse_coo_tensor(indexA, valueA, (m, k)).coalesce()
    b = torch.sparse_coo_tensor(indexB, valueB, (k, n)).coalesce()
    c = torch.sparse.mm(a, b).coalesce()
    return c.indices(), c.values()
