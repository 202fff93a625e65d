#!/usr/bin/env python3
"""The polynomial coefficients of builtins/math/*.cl, reproducibly.

Each approximation is a Chebyshev fit (mpmath.chebyfit, close to the minimax
polynomial) of a smooth remainder function on the reduced argument's
interval, in 100-digit arithmetic, printed as hex floats rounded to float and
to double, highest degree first (Horner order). The printed error is the
fit's relative error on the interval, before rounding the coefficients.

    python3 builtins/math/polynomials.py            # every table
    python3 builtins/math/polynomials.py atan       # one

Writing the output into a .cl file is a manual step: the tables there say
which entry they come from.
"""
import sys

import mpmath as mp

mp.mp.dps = 100

SQRT2 = mp.sqrt(2)

# name: (function of the polynomial's variable v, interval of v, degrees for float and double, how the
#        result is used)
TABLES = {
    # log1p(f) = f - f^2/2 + f^3 * R(f), f = m - 1 for m in [sqrt(2)/2, sqrt(2)).
    "log": (lambda f: (mp.log1p(f) - f + f * f / 2) / f**3 if f != 0 else mp.mpf(1) / 3,
            (SQRT2 / 2 - 1, SQRT2 - 1), (8, 17), "log1p(f) = f - f^2/2 + f^3 R(f)"),
    # tan(r) = r + r^3 * T(r^2), |r| <= pi/4.
    "tan": (lambda z: (mp.tan(mp.sqrt(z)) - mp.sqrt(z)) / mp.sqrt(z)**3 if z != 0 else mp.mpf(1) / 3,
            (0, (mp.pi / 4)**2), (7, 13), "tan(r) = r + r^3 T(r^2)"),
    # atan(t) = t + t^3 * A(t^2), |t| <= tan(pi/8).
    "atan": (lambda z: (mp.atan(mp.sqrt(z)) - mp.sqrt(z)) / mp.sqrt(z)**3 if z != 0 else mp.mpf(-1) / 3,
             (0, mp.tan(mp.pi / 8)**2), (5, 11), "atan(t) = t + t^3 A(t^2)"),
    # asin(x) = x + x^3 * S(x^2), |x| <= 1/2.
    "asin": (lambda z: (mp.asin(mp.sqrt(z)) - mp.sqrt(z)) / mp.sqrt(z)**3 if z != 0 else mp.mpf(1) / 6,
             (0, mp.mpf(1) / 4), (6, 13), "asin(x) = x + x^3 S(x^2)"),
    # tanh(x) = x + x^3 * H(x^2), |x| <= 0.55.
    "tanh": (lambda z: (mp.tanh(mp.sqrt(z)) - mp.sqrt(z)) / mp.sqrt(z)**3 if z != 0 else mp.mpf(-1) / 3,
             (0, mp.mpf("0.55")**2), (6, 12), "tanh(x) = x + x^3 H(x^2)"),
    # asinh(x) = x + x^3 * B(x^2), |x| <= 1/2.
    "asinh": (lambda z: (mp.asinh(mp.sqrt(z)) - mp.sqrt(z)) / mp.sqrt(z)**3 if z != 0 else mp.mpf(-1) / 6,
              (0, mp.mpf(1) / 4), (6, 13), "asinh(x) = x + x^3 B(x^2)"),
    # atanh(x) = x + x^3 * C(x^2), |x| <= 1/2.
    "atanh": (lambda z: (mp.atanh(mp.sqrt(z)) - mp.sqrt(z)) / mp.sqrt(z)**3 if z != 0 else mp.mpf(1) / 3,
              (0, mp.mpf(1) / 4), (7, 15), "atanh(x) = x + x^3 C(x^2)"),
}


def fit(name, precision):
    function, interval, degrees, usage = TABLES[name]
    degree = degrees[0] if precision == "float" else degrees[1]
    coefficients, error = mp.chebyfit(function, interval, degree + 1, error=True)
    # chebyfit's error is absolute; the functions above are bounded away from 0, so relative is close.
    scale = min(abs(function(mp.mpf(interval[0]) + (interval[1] - interval[0]) * k / 64)) for k in range(65))
    return coefficients, error / scale, usage


def hex_float(value, precision):
    if precision == "float":
        import struct
        rounded = struct.unpack("f", struct.pack("f", float(value)))[0]
        return float.hex(rounded).replace("0x", "0x") + "f"
    return float.hex(float(value))


def main(names):
    for name in names:
        for precision in ("float", "double"):
            coefficients, error, usage = fit(name, precision)
            print(f"// {name} ({precision}): {usage}, degree {len(coefficients) - 1}, "
                  f"relative error {mp.nstr(error, 3)}")
            print("  " + ", ".join(hex_float(c, precision) for c in coefficients))


if __name__ == "__main__":
    main(sys.argv[1:] or list(TABLES))
