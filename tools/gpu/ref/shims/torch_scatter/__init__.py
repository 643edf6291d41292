"""A pure-PyTorch stand-in for torch_scatter 2.0.9, for the reference harness.

The GPU machine has PyTorch but not torch_scatter, whose C++/CUDA extension cannot be
built there. This package gives the names that the Exphormer reference code and PyG
2.0.4 import, with torch_scatter's semantics, on torch.Tensor.scatter_add_ and
scatter_reduce_ (PyTorch >= 1.12). broadcast, scatter_sum, scatter_mean, scatter_std,
scatter_softmax and scatter_log_softmax are torch_scatter 2.0.9's own Python code
(MIT licence, Matthias Fey; torch_scatter/utils.py, scatter.py, composite/), copied
here (the two softmaxes with their common start in one helper); scatter_mul, scatter_min, scatter_max, segment_csr and gather_csr, which
torch_scatter implements in C++, are ours. Their tests: tools/gpu/ref/shims_test.py.

Where torch_scatter's kernels are non-deterministic (CUDA atomics), so are these.
"""
from typing import List, Optional, Tuple

import torch

__version__ = "2.0.9+gexph.shim"


def broadcast(src: torch.Tensor, other: torch.Tensor, dim: int):
    """src (an index) viewed and expanded to other's shape along dim (torch_scatter's)."""
    if dim < 0:
        dim = other.dim() + dim
    if src.dim() == 1:
        for _ in range(0, dim):
            src = src.unsqueeze(0)
    for _ in range(src.dim(), other.dim()):
        src = src.unsqueeze(-1)
    src = src.expand_as(other)
    return src


def _out_size(src: torch.Tensor, index: torch.Tensor, dim: int,
              dim_size: Optional[int]) -> List[int]:
    size = list(src.size())
    if dim_size is not None:
        size[dim] = dim_size
    elif index.numel() == 0:
        size[dim] = 0
    else:
        size[dim] = int(index.max()) + 1
    return size


def scatter_sum(src: torch.Tensor, index: torch.Tensor, dim: int = -1,
                out: Optional[torch.Tensor] = None,
                dim_size: Optional[int] = None) -> torch.Tensor:
    """out[..., index[j], ...] += src[..., j, ...] along dim."""
    index = broadcast(index, src, dim)
    if out is None:
        out = torch.zeros(_out_size(src, index, dim, dim_size), dtype=src.dtype, device=src.device)
    return out.scatter_add_(dim, index, src)


def scatter_add(src: torch.Tensor, index: torch.Tensor, dim: int = -1,
                out: Optional[torch.Tensor] = None,
                dim_size: Optional[int] = None) -> torch.Tensor:
    """scatter_sum."""
    return scatter_sum(src, index, dim, out, dim_size)


def scatter_mul(src: torch.Tensor, index: torch.Tensor, dim: int = -1,
                out: Optional[torch.Tensor] = None,
                dim_size: Optional[int] = None) -> torch.Tensor:
    """The product of the values sent to each position; 1 where none is (as
    torch_scatter's kernel, which starts from 1)."""
    index = broadcast(index, src, dim)
    if out is None:
        out = torch.ones(_out_size(src, index, dim, dim_size), dtype=src.dtype, device=src.device)
    return out.scatter_reduce_(dim, index, src, "prod", include_self=True)


def scatter_mean(src: torch.Tensor, index: torch.Tensor, dim: int = -1,
                 out: Optional[torch.Tensor] = None,
                 dim_size: Optional[int] = None) -> torch.Tensor:
    """The mean of the values sent to each position; 0 where none is."""
    out = scatter_sum(src, index, dim, out, dim_size)
    dim_size = out.size(dim)

    index_dim = dim
    if index_dim < 0:
        index_dim = index_dim + src.dim()
    if index.dim() <= index_dim:
        index_dim = index.dim() - 1

    ones = torch.ones(index.size(), dtype=src.dtype, device=src.device)
    count = scatter_sum(ones, index, index_dim, None, dim_size)
    count[count < 1] = 1
    count = broadcast(count, out, dim)
    if out.is_floating_point():
        out.true_divide_(count)
    else:
        out.div_(count, rounding_mode='floor')
    return out


def _scatter_arg(src: torch.Tensor, index: torch.Tensor, dim: int,
                 out: Optional[torch.Tensor], dim_size: Optional[int],
                 reduce: str) -> Tuple[torch.Tensor, torch.Tensor]:
    """scatter_min or scatter_max (reduce "amin" or "amax"), with torch_scatter's
    conventions: where no value arrives, the output is 0 (when out is not given) and
    the arg is src.size(dim); the arg is the first position along dim that holds the
    extreme value (the CPU kernel's choice among ties)."""
    if dim < 0:
        dim = src.dim() + dim
    index = broadcast(index, src, dim)
    if out is None:
        out = torch.zeros(_out_size(src, index, dim, dim_size), dtype=src.dtype, device=src.device)
        out.scatter_reduce_(dim, index, src, reduce, include_self=False)
    else:
        out.scatter_reduce_(dim, index, src, reduce, include_self=True)
    n = src.size(dim)
    shape = [1] * src.dim()
    shape[dim] = n
    pos = torch.arange(n, device=src.device).view(shape).expand_as(src)
    hit = src == out.gather(dim, index)
    cand = torch.where(hit, pos, torch.full_like(pos, n))
    arg = torch.full(out.size(), n, dtype=torch.long, device=src.device)
    arg.scatter_reduce_(dim, index, cand, "amin", include_self=True)
    return out, arg


def scatter_min(src: torch.Tensor, index: torch.Tensor, dim: int = -1,
                out: Optional[torch.Tensor] = None,
                dim_size: Optional[int] = None) -> Tuple[torch.Tensor, torch.Tensor]:
    """The smallest value sent to each position and its position along dim."""
    return _scatter_arg(src, index, dim, out, dim_size, "amin")


def scatter_max(src: torch.Tensor, index: torch.Tensor, dim: int = -1,
                out: Optional[torch.Tensor] = None,
                dim_size: Optional[int] = None) -> Tuple[torch.Tensor, torch.Tensor]:
    """The largest value sent to each position and its position along dim."""
    return _scatter_arg(src, index, dim, out, dim_size, "amax")


def scatter(src: torch.Tensor, index: torch.Tensor, dim: int = -1,
            out: Optional[torch.Tensor] = None, dim_size: Optional[int] = None,
            reduce: str = "sum") -> torch.Tensor:
    """Reduces src into out at index along dim with reduce: "sum" or "add", "mul",
    "mean", "min" or "max" (torch_scatter.scatter)."""
    if reduce == 'sum' or reduce == 'add':
        return scatter_sum(src, index, dim, out, dim_size)
    if reduce == 'mul':
        return scatter_mul(src, index, dim, out, dim_size)
    elif reduce == 'mean':
        return scatter_mean(src, index, dim, out, dim_size)
    elif reduce == 'min':
        return scatter_min(src, index, dim, out, dim_size)[0]
    elif reduce == 'max':
        return scatter_max(src, index, dim, out, dim_size)[0]
    else:
        raise ValueError("torch_scatter.scatter: reduce " + reduce + " is not one of sum, add, mul, mean, min, max")


def scatter_std(src: torch.Tensor, index: torch.Tensor, dim: int = -1,
                out: Optional[torch.Tensor] = None,
                dim_size: Optional[int] = None,
                unbiased: bool = True) -> torch.Tensor:
    """The standard deviation of the values sent to each position (torch_scatter's,
    with its 1e-6 added to the count)."""
    if out is not None:
        dim_size = out.size(dim)

    if dim < 0:
        dim = src.dim() + dim

    count_dim = dim
    if index.dim() <= dim:
        count_dim = index.dim() - 1

    ones = torch.ones(index.size(), dtype=src.dtype, device=src.device)
    count = scatter_sum(ones, index, count_dim, dim_size=dim_size)

    index = broadcast(index, src, dim)
    tmp = scatter_sum(src, index, dim, dim_size=dim_size)
    count = broadcast(count, tmp, dim).clamp(1)
    mean = tmp.div(count)

    var = (src - mean.gather(dim, index))
    var = var * var
    out = scatter_sum(var, index, dim, out, dim_size)

    if unbiased:
        count = count.sub(1).clamp_(1)
    out = out.div(count + 1e-6).sqrt()

    return out


def _recentred(src: torch.Tensor, index: torch.Tensor, dim: int,
              dim_size: Optional[int]) -> Tuple[torch.Tensor, torch.Tensor]:
    """index broadcast to src, and src minus its group's largest value (the common
    start of torch_scatter's scatter_softmax and scatter_log_softmax)."""
    index = broadcast(index, src, dim)
    max_value_per_index = scatter_max(src, index, dim=dim, dim_size=dim_size)[0]
    return index, src - max_value_per_index.gather(dim, index)


def scatter_softmax(src: torch.Tensor, index: torch.Tensor,
                    dim: int = -1,
                    dim_size: Optional[int] = None) -> torch.Tensor:
    """The softmax of src within each group of equal index along dim."""
    if not torch.is_floating_point(src):
        raise ValueError('`scatter_softmax` can only be computed over tensors '
                         'with floating point data types.')
    index, recentered_scores = _recentred(src, index, dim, dim_size)
    recentered_scores_exp = recentered_scores.exp_()
    sum_per_index = scatter_sum(
        recentered_scores_exp, index, dim, dim_size=dim_size)
    normalizing_constants = sum_per_index.gather(dim, index)
    return recentered_scores_exp.div(normalizing_constants)


def scatter_log_softmax(src: torch.Tensor, index: torch.Tensor, dim: int = -1,
                        eps: float = 1e-12,
                        dim_size: Optional[int] = None) -> torch.Tensor:
    """The log-softmax of src within each group of equal index along dim."""
    if not torch.is_floating_point(src):
        raise ValueError('`scatter_log_softmax` can only be computed over '
                         'tensors with floating point data types.')
    index, recentered_scores = _recentred(src, index, dim, dim_size)
    sum_per_index = scatter_sum(
        recentered_scores.exp(), index, dim, dim_size=dim_size)
    normalizing_constants = sum_per_index.add_(eps).log_().gather(dim, index)
    return recentered_scores.sub_(normalizing_constants)


def _csr_index(indptr: torch.Tensor) -> Tuple[torch.Tensor, int, torch.Tensor]:
    """The 1-D pointer of indptr (whose leading dimensions, if any, are 1, as PyG
    passes it), the dimension it indexes, and each position's segment."""
    dim = indptr.dim() - 1
    for i in range(dim):
        if indptr.size(i) != 1:
            raise NotImplementedError("torch_scatter (gexph shim): segment_csr and gather_csr take one pointer "
                                      "shared by all leading dimensions (indptr of size 1 in each)")
    ptr = indptr.reshape(-1)
    counts = ptr[1:] - ptr[:-1]
    seg = torch.repeat_interleave(torch.arange(counts.numel(), device=ptr.device), counts)
    return ptr, dim, seg


def segment_csr(src: torch.Tensor, indptr: torch.Tensor,
                out: Optional[torch.Tensor] = None,
                reduce: str = "sum") -> torch.Tensor:
    """Reduces src[indptr[i]:indptr[i+1]] along dim = indptr.dim()-1 into position i
    ("sum", "add", "mean", "min", "max"); an empty segment gives 0."""
    if reduce != "sum" and reduce != "add" and reduce != "mean" and reduce != "min" and reduce != "max":
        raise ValueError("torch_scatter.segment_csr: reduce " + reduce + " is not one of sum, add, mean, min, max")
    ptr, dim, seg = _csr_index(indptr)
    start = int(ptr[0])
    part = src.narrow(dim, start, int(ptr[-1]) - start)
    res = scatter(part, seg, dim, None, ptr.numel() - 1, reduce)
    if out is not None:
        return out.copy_(res)
    return res


def gather_csr(src: torch.Tensor, indptr: torch.Tensor,
               out: Optional[torch.Tensor] = None) -> torch.Tensor:
    """The inverse of segment_csr: position j in [indptr[i], indptr[i+1]) along
    dim = indptr.dim()-1 receives src's entry i."""
    ptr, dim, seg = _csr_index(indptr)
    vals = src.index_select(dim, seg)
    if out is None:
        size = list(src.size())
        size[dim] = int(ptr[-1])
        out = torch.zeros(size, dtype=src.dtype, device=src.device)
    out.narrow(dim, int(ptr[0]), vals.size(dim)).copy_(vals)
    return out
