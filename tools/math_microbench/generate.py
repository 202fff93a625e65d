#!/usr/bin/env python3
"""Writes the math microbenchmark: one corpus-style kernel per math function.

Each work-item evaluates the function 16 times, on its argument scaled by
1.000 to 1.015, and stores the sum of the absolute values (no cancellation,
so vkcl's and the reference's sums agree within the functions' own ulp
bounds). Memory traffic is 8 or 16 bytes per work-item, so the time is the
function's. It is for finding where the math library's time goes
(docs/performance.md, "The math library, function by function"); it is not
the corpus benchmark, and its kernels are not in shaders/corpus.

  tools/math_microbench/generate.py DIR
  build/tools/corpus_bench/vkcl-corpus-bench --corpus DIR --opencl ...

The kernels' names are math_micro_<function>; d<function> is the double one.
"""
import os
import sys

# name: (type, expression of v, lowest argument, highest argument)
FUNCTIONS = {
    'mad': ('float', 'mad(v, 1.3f, 0.7f)', -5, 5),  # the loop and memory alone
    'div': ('float', '1.0f / v', 0.5, 100),
    'sqrt': ('float', 'sqrt(v)', 0.01, 100),
    'rsqrt': ('float', 'rsqrt(v)', 0.01, 100),
    'cbrt': ('float', 'cbrt(v)', -5, 5),
    'hypot': ('float', 'hypot(v, 2.0f)', -5, 5),
    'exp': ('float', 'exp(v)', -5, 5),
    'exp2': ('float', 'exp2(v)', -5, 5),
    'expm1': ('float', 'expm1(v)', -5, 5),
    'log': ('float', 'log(v)', 0.01, 100),
    'log2': ('float', 'log2(v)', 0.01, 100),
    'log1p': ('float', 'log1p(v)', 0.01, 100),
    'pow': ('float', 'pow(v, 1.7f)', 0.01, 10),
    'sin': ('float', 'sin(v)', -5, 5),
    'cos': ('float', 'cos(v)', -5, 5),
    'tan': ('float', 'tan(v)', -1, 1),
    'sin_large': ('float', 'sin(v)', -1000, 1000),
    'asin': ('float', 'asin(v)', -0.9, 0.9),
    'acos': ('float', 'acos(v)', -0.9, 0.9),
    'atan': ('float', 'atan(v)', -5, 5),
    'atan2': ('float', 'atan2(v, 1.5f - v)', -5, 5),
    'sinh': ('float', 'sinh(v)', -5, 5),
    'cosh': ('float', 'cosh(v)', -5, 5),
    'tanh': ('float', 'tanh(v)', -5, 5),
    'asinh': ('float', 'asinh(v)', -5, 5),
    'acosh': ('float', 'acosh(v)', 1, 10),
    'atanh': ('float', 'atanh(v)', -0.9, 0.9),
    'erf': ('float', 'erf(v)', -3, 3),
    'fmod': ('float', 'fmod(v, 1.3f)', -50, 50),
    'remainder': ('float', 'remainder(v, 1.3f)', -50, 50),
    'fma': ('float', 'fma(v, 1.3f, 0.7f)', -5, 5),
    'dsqrt': ('double', 'sqrt(v)', 0.01, 10),
    'ddiv': ('double', '1.0 / v', 0.01, 10),
    'dcbrt': ('double', 'cbrt(v)', 0.01, 10),
    'dexp': ('double', 'exp(v)', 0.01, 10),
    'dlog': ('double', 'log(v)', 0.01, 10),
    'dpow': ('double', 'pow(v, 1.5)', 0.01, 10),
    'dsin': ('double', 'sin(v)', 0.01, 10),
    'dcos': ('double', 'cos(v)', 0.01, 10),
    'datan': ('double', 'atan(v)', 0.01, 10),
    'dfma': ('double', 'fma(v, 1.3, 0.7)', 0.01, 10),
}

TEMPLATE = '''// Math microbenchmark ({name}), written by tools/math_microbench/generate.py.
// @kernel micro
{requires}// @global 256
// @arg x global {t}[256] random(7, {lo}, {hi})
// @arg out global {t}[256] zero
// @check out ulp 64
// @bench-global 4194304
// @bench-arg x global {t}[4194304] random(7, {lo}, {hi})
// @bench-arg out global {t}[4194304] zero
{pragma}__kernel void micro(__global const {t}* x, __global {t}* out) {{
  const int i = get_global_id(0);
  const {t} a = x[i];
  {t} s = 0;
  for (int k = 0; k < 16; ++k) {{
    const {t} v = a * (1.0{suffix} + (({t})k) * 0.001{suffix});
    s += fabs({expression});
  }}
  out[i] = s;
}}
'''


def main():
    if len(sys.argv) != 2:
        sys.exit('usage: generate.py DIR')
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, (t, expression, lo, hi) in FUNCTIONS.items():
        double = t == 'double'
        text = TEMPLATE.format(
            name=name, t=t, lo=lo, hi=hi, expression=expression,
            suffix='' if double else 'f',
            requires='// @requires cl_khr_fp64\n' if double else '',
            pragma='#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n' if double else '')
        with open(os.path.join(out, f'math_micro_{name}.cl'), 'w') as f:
            f.write(text)
    print(f'{len(FUNCTIONS)} kernels in {out}')


if __name__ == '__main__':
    main()
