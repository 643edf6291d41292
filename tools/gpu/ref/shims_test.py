#!/usr/bin/env python3
"""Tests of the reference harness's shims (shims/, fallbacks/) and adaptations
(ref_bench.compat, ref_bench.parallel_pre_transform): each function against a direct
computation of what it must give (loops over groups, dense matrices, the original
implementation where one is installed).

    python3 tools/gpu/ref/shims_test.py [--site SITE]

needs torch and numpy; with --site (the extracted py-*.tar.gz, PyG 2.0.4 among them) it
also checks the parallel preprocessing against the serial one and that PyG 2.0.4's
TorchScript-compiled softmax compiles and runs on the shims. tools/gpu/check_test.go runs
it.
"""
import argparse
import functools
import importlib.metadata
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SITE = None  # --site


def setUpModule():
    sys.path.insert(0, os.path.join(HERE, "shims"))
    sys.path.insert(0, HERE)
    if SITE:
        sys.path.insert(2, SITE)  # after the shims: PyG 2.0.4 imports them
    sys.path.append(os.path.join(HERE, "fallbacks"))


def groups(index, n):
    """The positions of each value 0..n-1 in the 1-D list index."""
    return [[j for j, v in enumerate(index) if v == i] for i in range(n)]


class ScatterTest(unittest.TestCase):
    def setUp(self):
        import torch
        self.torch = torch
        g = torch.Generator().manual_seed(7)
        self.src = torch.randn(11, 3, 4, generator=g)
        self.index = torch.tensor([0, 2, 2, 5, 0, 2, 4, 4, 0, 5, 2])  # 1 and 3 receive nothing
        self.n = 7  # dim_size: 6 is empty too

    def direct(self, reduce, empty):
        """Each position's reduction of its rows of src along dim 0, by a loop."""
        torch = self.torch
        out = torch.full((self.n, 3, 4), float(empty))
        for i, rows in enumerate(groups(self.index.tolist(), self.n)):
            if rows:
                block = self.src[rows]
                out[i] = {"sum": block.sum(0), "mean": block.mean(0), "max": block.max(0).values,
                          "min": block.min(0).values, "mul": block.prod(0)}[reduce]
        return out

    def test_scatter_reductions_equal_group_loops(self):
        import torch_scatter
        for reduce, empty in (("sum", 0), ("add", 0), ("mean", 0), ("max", 0), ("min", 0), ("mul", 1)):
            got = torch_scatter.scatter(self.src, self.index, 0, dim_size=self.n, reduce=reduce)
            want = self.direct("sum" if reduce == "add" else reduce, empty)
            self.assertTrue(self.torch.allclose(got, want, atol=1e-6), reduce)

    def test_scatter_along_inner_dim_broadcasts_index(self):
        import torch_scatter
        src = self.src.transpose(0, 1).contiguous()  # [3, 11, 4], groups along dim 1
        got = torch_scatter.scatter(src, self.index, 1, dim_size=self.n, reduce="sum")
        self.assertTrue(self.torch.allclose(got.transpose(0, 1), self.direct("sum", 0), atol=1e-6))
        got = torch_scatter.scatter(src.transpose(1, 2), self.index, -1, dim_size=self.n, reduce="max")
        self.assertTrue(self.torch.allclose(got.permute(2, 0, 1), self.direct("max", 0)))

    def test_scatter_without_dim_size_ends_at_largest_index(self):
        import torch_scatter
        got = torch_scatter.scatter_add(self.src, self.index, 0)
        self.assertEqual(tuple(got.shape), (6, 3, 4))
        self.assertTrue(self.torch.allclose(got, self.direct("sum", 0)[:6], atol=1e-6))

    def test_scatter_into_out_reduces_with_its_values(self):
        import torch_scatter
        torch = self.torch
        out = torch.full((self.n, 3, 4), 0.5)
        got = torch_scatter.scatter(self.src, self.index, 0, out=out.clone(), reduce="max")
        want = torch.maximum(self.direct("max", -1e9), out)
        self.assertTrue(torch.equal(got, want))
        got = torch_scatter.scatter(self.src, self.index, 0, out=out.clone(), reduce="sum")
        self.assertTrue(torch.allclose(got, self.direct("sum", 0) + 0.5, atol=1e-6))

    def test_scatter_max_and_min_args_point_at_the_first_extreme(self):
        import torch_scatter
        torch = self.torch
        src = torch.tensor([3., 1., 3., 2., 1., 5.])
        index = torch.tensor([0, 0, 0, 2, 2, 3])
        val, arg = torch_scatter.scatter_max(src, index, dim_size=5)
        self.assertEqual(val.tolist(), [3., 0., 2., 5., 0.])
        self.assertEqual(arg.tolist(), [0, 6, 3, 5, 6])  # ties: the first; empty: src.size(dim)
        val, arg = torch_scatter.scatter_min(src, index, dim_size=5)
        self.assertEqual(val.tolist(), [1., 0., 1., 5., 0.])
        self.assertEqual(arg.tolist(), [1, 6, 4, 5, 6])
        val, arg = torch_scatter.scatter_max(self.src, self.index, 0, dim_size=self.n)
        for i, rows in enumerate(groups(self.index.tolist(), self.n)):
            for h in range(3):
                for d in range(4):
                    if rows:
                        want = rows[int(self.src[rows, h, d].argmax())]
                        self.assertEqual(int(arg[i, h, d]), want)
                    else:
                        self.assertEqual(int(arg[i, h, d]), 11)

    def test_scatter_std_equals_group_sample_std(self):
        import numpy as np
        import torch_scatter
        got = torch_scatter.scatter_std(self.src, self.index, 0, dim_size=self.n)
        for i, rows in enumerate(groups(self.index.tolist(), self.n)):
            if len(rows) > 1:
                want = np.std(self.src[rows].numpy().astype(np.float64), axis=0, ddof=1)
                self.assertTrue(np.allclose(got[i].numpy(), want, rtol=1e-5, atol=1e-5), i)
            else:
                self.assertEqual(float(got[i].abs().max()), 0.0)

    def test_scatter_softmax_equals_group_softmax(self):
        import torch_scatter
        torch = self.torch
        got = torch_scatter.scatter_softmax(self.src, self.index, 0)
        got_log = torch_scatter.scatter_log_softmax(self.src, self.index, 0)
        for rows in groups(self.index.tolist(), self.n):
            if rows:
                want = torch.softmax(self.src[rows].double(), 0).float()
                self.assertTrue(torch.allclose(got[rows], want, atol=1e-6))
                self.assertTrue(torch.allclose(got_log[rows], want.log(), atol=1e-5))
        with self.assertRaises(ValueError):
            torch_scatter.scatter_softmax(self.index, self.index)

    def test_segment_and_gather_csr_equal_slices(self):
        import torch_scatter
        torch = self.torch
        ptr = torch.tensor([0, 3, 3, 7, 11])  # segment 1 is empty
        for reduce, f in (("sum", lambda b: b.sum(0)), ("mean", lambda b: b.mean(0)),
                          ("max", lambda b: b.max(0).values), ("min", lambda b: b.min(0).values)):
            got = torch_scatter.segment_csr(self.src, ptr, reduce=reduce)
            for i in range(4):
                block = self.src[int(ptr[i]):int(ptr[i + 1])]
                want = f(block) if len(block) else torch.zeros(3, 4)
                self.assertTrue(torch.allclose(got[i], want, atol=1e-6), (reduce, i))
        # PyG's form: the pointer viewed as [1, ..., -1] indexes dim ptr.dim()-1
        src = self.src.transpose(0, 1)
        got = torch_scatter.segment_csr(src, ptr.view(1, -1), reduce="sum")
        self.assertTrue(torch.allclose(got.transpose(0, 1), torch_scatter.segment_csr(self.src, ptr), atol=1e-6))
        seg = torch.randn(4, 2)
        back = torch_scatter.gather_csr(seg, ptr)
        want = torch.cat([seg[i].expand(int(ptr[i + 1] - ptr[i]), 2) for i in range(4)])
        self.assertTrue(torch.equal(back, want))
        with self.assertRaises(NotImplementedError):
            torch_scatter.segment_csr(self.src, torch.stack([ptr, ptr]), reduce="sum")
        with self.assertRaises(ValueError):
            torch_scatter.segment_csr(self.src, ptr, reduce="mul")

    def test_shims_compile_with_torchscript_and_agree(self):
        import torch_scatter
        torch = self.torch
        for name in ("scatter", "segment_csr", "gather_csr", "scatter_max", "scatter_softmax", "scatter_std"):
            torch.jit.script(getattr(torch_scatter, name))
        scripted = torch.jit.script(torch_scatter.scatter)
        for reduce in ("sum", "mean", "max", "mul"):
            self.assertTrue(torch.equal(scripted(self.src, self.index, 0, None, self.n, reduce),
                                        torch_scatter.scatter(self.src, self.index, 0, None, self.n, reduce)))


class SparseTest(unittest.TestCase):
    def setUp(self):
        import torch
        self.torch = torch
        g = torch.Generator().manual_seed(3)
        self.m, self.n = 5, 4
        self.index = torch.tensor([[4, 0, 2, 0, 4, 1, 0], [1, 3, 2, 3, 1, 0, 0]])  # (0,3) and (4,1) twice
        self.value = torch.randn(7, 2, generator=g)

    def dense(self, index, value, m, n):
        out = self.torch.zeros(m, n, *value.shape[1:], dtype=value.dtype)
        for k in range(index.shape[1]):
            out[index[0, k], index[1, k]] += value[k]
        return out

    def test_coalesce_sorts_and_sums_duplicates(self):
        import torch_sparse
        torch = self.torch
        idx, val = torch_sparse.coalesce(self.index, self.value, self.m, self.n)
        keys = (idx[0] * self.n + idx[1]).tolist()
        self.assertEqual(keys, sorted(set(keys)))
        self.assertEqual(idx.shape[1], 5)
        self.assertTrue(torch.allclose(self.dense(idx, val, self.m, self.n),
                                       self.dense(self.index, self.value, self.m, self.n)))
        idx2, none = torch_sparse.coalesce(self.index, None, self.m, self.n)
        self.assertTrue(torch.equal(idx2, idx))
        self.assertIsNone(none)

    def test_coalesce_reduces_duplicates_with_op(self):
        import torch_sparse
        torch = self.torch
        v = torch.tensor([1., 2., 3., 4., 5., 6., 7.])
        idx, val = torch_sparse.coalesce(self.index, v, self.m, self.n, op="max")
        got = {(int(r), int(c)): float(x) for r, c, x in zip(idx[0], idx[1], val)}
        self.assertEqual(got, {(0, 0): 7., (0, 3): 4., (1, 0): 6., (2, 2): 3., (4, 1): 5.})
        idx, val = torch_sparse.coalesce(self.index, v, self.m, self.n, op="mean")
        got = {(int(r), int(c)): float(x) for r, c, x in zip(idx[0], idx[1], val)}
        self.assertEqual(got[(0, 3)], 3.0)
        self.assertEqual(got[(4, 1)], 3.0)

    def test_transpose_equals_dense_transpose(self):
        import torch_sparse
        torch = self.torch
        idx, val = torch_sparse.transpose(self.index, self.value, self.m, self.n)
        self.assertTrue(torch.allclose(self.dense(idx, val, self.n, self.m),
                                       self.dense(self.index, self.value, self.m, self.n).transpose(0, 1)))

    def test_spspmm_equals_dense_product(self):
        import torch_sparse
        torch = self.torch
        va = torch.randn(7, generator=torch.Generator().manual_seed(1))
        ib = torch.tensor([[0, 1, 3, 3, 2], [2, 0, 1, 2, 2]])
        vb = torch.randn(5, generator=torch.Generator().manual_seed(2))
        idx, val = torch_sparse.spspmm(self.index, va, ib, vb, self.m, self.n, 3, coalesced=True)
        want = self.dense(self.index, va, self.m, self.n) @ self.dense(ib, vb, self.n, 3)
        self.assertTrue(torch.allclose(self.dense(idx, val, self.m, 3), want, atol=1e-6))

    def test_sparse_tensor_paths_refuse_clearly(self):
        import torch_sparse
        with self.assertRaisesRegex(NotImplementedError, "SparseTensor"):
            torch_sparse.SparseTensor(row=self.index[0], col=self.index[1])
        for name in ("matmul", "set_diag", "fill_diag", "mul", "cat", "sum", "masked_select_nnz"):
            with self.assertRaisesRegex(NotImplementedError, "SparseTensor"):
                getattr(torch_sparse, name)(None)

    def test_sparse_tensor_type_compiles_in_torchscript_overloads(self):
        # PyG 2.0.4's maybe_num_nodes is overloaded on SparseTensor and called from a
        # scripted function: the class must compile.
        import torch_sparse
        self.torch.jit.script(torch_sparse.SparseTensor)


class FallbackTest(unittest.TestCase):
    def test_loose_version_orders_as_distutils(self):
        import importlib.util
        spec = importlib.util.spec_from_file_location("fallback_version", os.path.join(HERE, "fallbacks", "distutils", "version.py"))
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        LV = mod.LooseVersion
        ordered = ["1.7.1", "1.8.0", "1.10", "1.13.0a0", "2.0.0", "2.11.0+cu130"]
        for i, a in enumerate(ordered):
            for j, b in enumerate(ordered):
                self.assertEqual(LV(a) < LV(b), i < j, (a, b))
                self.assertEqual(LV(a) >= b, i >= j, (a, b))
        self.assertTrue(LV("2.11.0+cu130") >= LV("1.8.0"))
        try:  # the original, where there is one (setuptools' copy or Python <= 3.11)
            import warnings
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                from distutils.version import LooseVersion as Orig
        except ImportError:
            return
        for a in ordered:
            for b in ordered:
                self.assertEqual(LV(a) < LV(b), Orig(a) < Orig(b), (a, b))

    def test_pkg_resources_get_distribution_reads_installed_metadata(self):
        import importlib.util
        spec = importlib.util.spec_from_file_location("fallback_pkg", os.path.join(HERE, "fallbacks", "pkg_resources", "__init__.py"))
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        name = next(d.metadata["Name"] for d in importlib.metadata.distributions() if d.metadata["Name"])
        self.assertEqual(mod.get_distribution(name).version, importlib.metadata.version(name))
        with self.assertRaises(mod.DistributionNotFound):
            mod.get_distribution("no-such-distribution-gexph")


class CompatTest(unittest.TestCase):
    def test_torch_load_defaults_to_full_unpickling(self):
        import types
        import ref_bench
        calls = []
        fake = types.SimpleNamespace(load=lambda *a, **k: calls.append(k))
        ref_bench.full_unpickling(fake)
        fake.load("f")
        fake.load("f", weights_only=True)
        self.assertEqual(calls, [{"weights_only": False}, {"weights_only": True}])

    def test_script_falls_back_to_the_eager_function(self):
        import types
        import ref_bench

        def refuse(fn):
            if fn.__name__ == "bad":
                raise RuntimeError("cannot compile\nmore")
            return ("scripted", fn)

        def good():
            return 1

        def bad():
            return 2

        fake = types.SimpleNamespace(jit=types.SimpleNamespace(script=refuse))
        ref_bench.script_or_eager(fake)
        self.assertEqual(fake.jit.script(good), ("scripted", good))
        self.assertIs(fake.jit.script(bad), bad)
        self.assertIn("CompatTest.test_script_falls_back_to_the_eager_function.<locals>.bad", ref_bench.SCRIPT_FALLBACKS)

    def test_cuda_amp_autocast_is_supplied_only_where_missing(self):
        import types
        import ref_bench
        have = types.SimpleNamespace(autocast="original")
        fake = types.SimpleNamespace(cuda=types.SimpleNamespace(amp=have), amp=None)
        ref_bench.cuda_amp_autocast(fake)
        self.assertIs(fake.cuda.amp, have)
        saved = sys.modules.get("torch.cuda.amp")
        try:
            calls = []
            fake = types.SimpleNamespace(cuda=types.SimpleNamespace(),
                                         amp=types.SimpleNamespace(autocast=lambda *a, **k: calls.append((a, k))))
            ref_bench.cuda_amp_autocast(fake)
            fake.cuda.amp.autocast(enabled=False)
            self.assertEqual(calls, [(("cuda",), {"enabled": False})])
            self.assertIs(sys.modules["torch.cuda.amp"], fake.cuda.amp)
        finally:
            if saved is None:
                sys.modules.pop("torch.cuda.amp", None)
            else:
                sys.modules["torch.cuda.amp"] = saved

    def test_compat_keeps_scipy_stats_stats_importable(self):
        import torch
        import ref_bench
        load, script = torch.load, torch.jit.script
        try:
            ref_bench.compat(torch)
            import scipy.stats.stats  # noqa: F401 (present, or aliased by compat)
        finally:
            torch.load, torch.jit.script = load, script


def add_one(data):
    """A deterministic per-graph transform for the parallel preprocessing test."""
    data.total = data.x.sum().view(1) + data.edge_index.shape[1]
    return data


class ParallelPreTransformTest(unittest.TestCase):
    def setUp(self):
        if not SITE:
            self.skipTest("needs --site (PyG 2.0.4)")

    def test_parallel_pass_equals_serial_pass(self):
        import torch
        import ref_bench
        from torch_geometric.data import Data, InMemoryDataset

        class Graphs(InMemoryDataset):
            def __init__(self, graphs):
                super().__init__(None)
                self.data, self.slices = self.collate(graphs)

        def serial(dataset, transform_func, show_progress=False):
            # graphgps/transform/transforms.py:pre_transform_in_memory, the reference's
            data_list = list(filter(None, [transform_func(dataset.get(i)) for i in range(len(dataset))]))
            dataset._indices = None
            dataset._data_list = data_list
            dataset.data, dataset.slices = dataset.collate(data_list)

        g = torch.Generator().manual_seed(5)
        graphs = []
        for i in range(37):
            n = 3 + i % 5
            graphs.append(Data(x=torch.randn(n, 2, generator=g),
                               edge_index=torch.randint(0, n, (2, 2 * n), generator=g), y=torch.tensor([i])))
        a, b = Graphs(graphs), Graphs(graphs)
        serial(a, functools.partial(add_one))
        ref_bench.parallel_pre_transform(3, serial)(b, functools.partial(add_one))
        self.assertEqual(sorted(a.slices), sorted(b.slices))
        for key in a.slices:
            self.assertTrue(torch.equal(a.slices[key], b.slices[key]), key)
            self.assertTrue(torch.equal(a.data[key], b.data[key]), key)

    def test_pyg_scripted_softmax_runs_on_the_shims(self):
        import torch
        from torch_geometric.utils import softmax
        src = torch.randn(9, 2)
        index = torch.tensor([0, 0, 1, 1, 1, 3, 3, 3, 3])
        got = softmax(src, index)
        for i in (0, 1, 3):
            rows = (index == i).nonzero().flatten()
            self.assertTrue(torch.allclose(got[rows], torch.softmax(src[rows], 0), atol=1e-6))
        ptr = torch.tensor([0, 2, 5, 5, 9])
        self.assertTrue(torch.allclose(softmax(src, ptr=ptr), got, atol=1e-6))


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--site", default="")
    known, rest = ap.parse_known_args()
    SITE = os.path.abspath(known.site) if known.site else None
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)
