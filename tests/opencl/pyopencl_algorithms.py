"""PyOpenCL's own algorithms on vkcl, each checked against numpy.

Run by ctest (tests/opencl/CMakeLists.txt) with Debian's python3-pyopencl,
the ICD loader pointed at the built library (OCL_ICD_VENDORS). Every test
runs PyOpenCL code that vkcl's authors did not write: its reductions, scans,
sorts, random number generators and elementwise kernels, generated and
compiled at run time through clBuildProgram.
"""
import unittest

import numpy as np
import pyopencl as cl
import pyopencl.array as cla
import pyopencl.clrandom as clrandom
from pyopencl.algorithm import RadixSort, copy_if, partition, remove_if, unique
from pyopencl.bitonic_sort import BitonicSort
from pyopencl.elementwise import ElementwiseKernel
from pyopencl.reduction import ReductionKernel
from pyopencl.scan import ExclusiveScanKernel, GenericScanKernel, InclusiveScanKernel


def vkcl_context():
    platforms = [p for p in cl.get_platforms() if p.name == "vkcl"]
    if not platforms:
        raise RuntimeError("no vkcl platform: is OCL_ICD_VENDORS set?")
    return cl.Context(platforms[0].get_devices()[:1])


class Algorithms(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.context = vkcl_context()
        cls.queue = cl.CommandQueue(cls.context)
        cls.device = cls.context.devices[0]
        cls.fp64 = "cl_khr_fp64" in cls.device.extensions
        cls.rng = np.random.default_rng(2026)

    def ints(self, n, high=1000, dtype=np.int32):
        return self.rng.integers(0, high, n).astype(dtype)

    def floats(self, n, dtype=np.float32):
        return self.rng.random(n).astype(dtype)

    # Reductions and dot products.
    def test_sum_min_max(self):
        for n in (1, 1000, 100_003):
            a = self.floats(n)
            d = cla.to_device(self.queue, a)
            self.assertTrue(np.isclose(cla.sum(d).get(), a.sum(dtype=np.float64), rtol=1e-4), n)
            self.assertEqual(cla.min(d).get(), a.min())
            self.assertEqual(cla.max(d).get(), a.max())
        i = self.ints(50_000)
        self.assertEqual(cla.sum(cla.to_device(self.queue, i)).get(), i.sum())

    def test_dot_and_custom_reduction(self):
        a, b = self.floats(20_000), self.floats(20_000)
        da, db = cla.to_device(self.queue, a), cla.to_device(self.queue, b)
        self.assertTrue(np.isclose(cla.dot(da, db).get(), np.dot(a.astype(np.float64), b), rtol=1e-4))
        norm = ReductionKernel(self.context, np.float32, neutral="0", reduce_expr="a+b",
                               map_expr="x[i]*x[i]", arguments="__global const float *x")
        self.assertTrue(np.isclose(norm(da).get(), np.dot(a.astype(np.float64), a), rtol=1e-4))
        if self.fp64:
            d = self.floats(10_000, np.float64)
            self.assertTrue(np.isclose(cla.sum(cla.to_device(self.queue, d)).get(), d.sum(), rtol=1e-12))

    # Scans.
    def test_cumsum_and_scan_kernels(self):
        for n in (1, 257, 100_000):
            i = self.ints(n, 100)
            d = cla.to_device(self.queue, i)
            np.testing.assert_array_equal(cla.cumsum(d).get(), np.cumsum(i))
        i = self.ints(30_000, 100)
        inclusive = InclusiveScanKernel(self.context, np.int32, "a+b", neutral="0")
        d = cla.to_device(self.queue, i)
        inclusive(d)
        np.testing.assert_array_equal(d.get(), np.cumsum(i))
        exclusive = ExclusiveScanKernel(self.context, np.int32, "a+b", "0")
        d = cla.to_device(self.queue, i)
        exclusive(d)
        np.testing.assert_array_equal(d.get(), np.concatenate(([0], np.cumsum(i)[:-1])))
        # A segmented max-scan through the generic kernel.
        flags = (self.rng.random(30_000) < 0.01).astype(np.uint8)
        segmented = GenericScanKernel(
            self.context, np.int32, arguments="__global int *ary, __global char *segflags, __global int *out",
            input_expr="ary[i]", scan_expr="across_seg_boundary ? b : max(a, b)", neutral="0",
            is_segment_start_expr="segflags[i]", output_statement="out[i] = item;")
        out = cla.empty(self.queue, 30_000, np.int32)
        segmented(cla.to_device(self.queue, i), cla.to_device(self.queue, flags), out)
        expected, current = np.empty_like(i), 0
        for k in range(len(i)):
            current = i[k] if (flags[k] or k == 0) else max(current, i[k])
            expected[k] = current
        np.testing.assert_array_equal(out.get(), expected)

    # Selection.
    def test_copy_if_remove_if_partition_unique(self):
        i = self.ints(50_000)
        d = cla.to_device(self.queue, i)
        kept, count, _ = copy_if(d, "ary[i] < 300")
        np.testing.assert_array_equal(kept.get()[:count.get()], i[i < 300])
        removed, count, _ = remove_if(d, "ary[i] < 300")
        np.testing.assert_array_equal(removed.get()[:count.get()], i[i >= 300])
        true_part, false_part, count, _ = partition(d, "ary[i] % 2 == 0")
        n = count.get()
        np.testing.assert_array_equal(true_part.get()[:n], i[i % 2 == 0])
        np.testing.assert_array_equal(false_part.get()[:len(i) - n], i[i % 2 == 1])
        s = np.sort(i)
        unique_values, count, _ = unique(cla.to_device(self.queue, s))
        np.testing.assert_array_equal(unique_values.get()[:count.get()], np.unique(s))

    # Sorts.
    def test_radix_sort(self):
        keys = self.ints(40_000, 1 << 20, np.uint32)
        values = np.arange(len(keys), dtype=np.uint32)
        sort = RadixSort(self.context, "unsigned *keys, unsigned *values", key_expr="keys[i]",
                         sort_arg_names=["keys", "values"], key_dtype=np.uint32)
        (sorted_keys, sorted_values), _ = sort(cla.to_device(self.queue, keys), cla.to_device(self.queue, values),
                                               key_bits=20)
        order = np.argsort(keys, kind="stable")
        np.testing.assert_array_equal(sorted_keys.get(), keys[order])
        np.testing.assert_array_equal(sorted_values.get(), values[order])

    def test_bitonic_sort(self):
        sort = BitonicSort(self.context)
        for n in (64, 1024, 1 << 14):
            a = self.floats(n)
            result, _ = sort(cla.to_device(self.queue, a), axis=0)
            np.testing.assert_array_equal(result.get(), np.sort(a))
        keys = self.ints(4096, 1 << 30)
        idx = cla.arange(self.queue, 4096, dtype=np.int32)
        result, _ = sort(cla.to_device(self.queue, keys), idx=idx, axis=0)
        np.testing.assert_array_equal(result.get(), np.sort(keys))
        np.testing.assert_array_equal(keys[idx.get()], np.sort(keys))

    # Random numbers: the moments of each generator and distribution.
    def test_random_number_generators(self):
        for generator in (clrandom.PhiloxGenerator(self.context), clrandom.ThreefryGenerator(self.context)):
            uniform = generator.uniform(self.queue, 200_000, np.float32, a=2, b=4).get()
            self.assertTrue(2 <= uniform.min() and uniform.max() <= 4)
            self.assertAlmostEqual(uniform.mean(), 3, delta=0.02)
            self.assertAlmostEqual(uniform.var(), 4 / 12, delta=0.01)
            normal = generator.normal(self.queue, 200_000, np.float32, mu=1, sigma=2).get()
            self.assertAlmostEqual(normal.mean(), 1, delta=0.03)
            self.assertAlmostEqual(normal.std(), 2, delta=0.03)
            ints = generator.uniform(self.queue, 100_000, np.int32, a=0, b=10).get()
            self.assertEqual(set(np.unique(ints)), set(range(10)))
        r = clrandom.rand(self.queue, (100_000,), np.float32).get()
        self.assertAlmostEqual(r.mean(), 0.5, delta=0.01)

    # Elementwise kernels and array arithmetic.
    def test_elementwise_kernel(self):
        lin_comb = ElementwiseKernel(self.context, "float k1, float *a_g, float k2, float *b_g, float *res_g",
                                     "res_g[i] = k1 * a_g[i] + k2 * b_g[i]", "lin_comb")
        a, b = self.floats(50_001), self.floats(50_001)
        res = cla.empty(self.queue, 50_001, np.float32)
        lin_comb(np.float32(2), cla.to_device(self.queue, a), np.float32(3), cla.to_device(self.queue, b), res)
        np.testing.assert_allclose(res.get(), 2 * a + 3 * b, rtol=1e-6)

    def test_array_arithmetic(self):
        a, b = self.floats(10_000) + 0.5, self.floats(10_000) + 0.5
        da, db = cla.to_device(self.queue, a), cla.to_device(self.queue, b)
        np.testing.assert_allclose((da + db).get(), a + b, rtol=1e-6)
        np.testing.assert_allclose((da * db - 1).get(), a * b - 1, rtol=1e-5)
        np.testing.assert_allclose((da / db).get(), a / b, rtol=1e-6)
        np.testing.assert_allclose((2 ** da).get(), 2 ** a, rtol=1e-5)
        np.testing.assert_allclose(cla.if_positive(da - 1, da, db).get(), np.where(a - 1 > 0, a, b))
        import pyopencl.clmath as clmath
        np.testing.assert_allclose(clmath.sin(da).get(), np.sin(a), rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(clmath.exp(da).get(), np.exp(a), rtol=1e-5)
        np.testing.assert_allclose(clmath.sqrt(da).get(), np.sqrt(a), rtol=1e-6)
        m = self.floats(64 * 48).reshape(64, 48)
        dm = cla.to_device(self.queue, m)
        np.testing.assert_array_equal(dm[3:40].get(), m[3:40])
        np.testing.assert_allclose(cla.sum(dm[3:40]).get(), m[3:40].sum(dtype=np.float64), rtol=1e-4)
        i = self.ints(10_000)
        di = cla.to_device(self.queue, i)
        np.testing.assert_array_equal((di * 3 - 7).get(), i * 3 - 7)
        np.testing.assert_array_equal(abs(di - 500).get(), abs(i - 500))
        np.testing.assert_array_equal(cla.maximum(di, cla.to_device(self.queue, i[::-1].copy())).get(), np.maximum(i, i[::-1]))
        np.testing.assert_array_equal(cla.take(di, cla.to_device(self.queue, np.array([5, 1, 9999], np.int32))).get(),
                                      i[[5, 1, 9999]])
        np.testing.assert_array_equal(cla.zeros(self.queue, 1000, np.int16).get(), np.zeros(1000, np.int16))
        np.testing.assert_array_equal(cla.arange(self.queue, 3, 1000, 7, dtype=np.int64).get(),
                                      np.arange(3, 1000, 7, dtype=np.int64))


if __name__ == "__main__":
    unittest.main(verbosity=2)
