#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING)
"""The PQ EOTF polynomials of tonemap_x8.cl (tm_pq_eotf16), and their check.

    kernels/pqfit.py          # prints the tables' #defines and the errors

PQ's EOTF in nits over the signal E in [2^-16, 1), in 32 pieces: each
octave [2^e, 2^(e+1)) of the 16 in two halves, piece i = the float's bits
>> 22 less 2 (127 - 16) (exponent and the mantissa's top bit), a degree-6
polynomial in t = the mantissa's other 22 bits as a fraction in [0, 0.5).
Fitted by least squares on the relative error; checked here on every
16th float of [2^-16, 1) in float32 Horner steps (separate roundings of
each product and sum, as without fused multiply-adds, the worse case),
against the EOTF in double precision. Below 2^-16 the EOTF is below
2e-8 nits (0.02 of an 8-bit level after any curve) and the kernel gives 0.
"""
import numpy as np

M1, M2 = 2610 / 16384, 2523 / 32
C1, C2, C3 = 3424 / 4096, 2413 / 128, 2392 / 128
DEGREE = 6
OCTAVES = 16


def eotf(e):
    p = e ** (1 / M2)
    return 10000 * (np.maximum(p - C1, 0) / (C2 - C3 * p)) ** (1 / M1)


def fit():
    coef = []
    for i in range(2 * OCTAVES):
        e = i // 2 - OCTAVES
        t = np.linspace(0, 0.5, 4001)
        x = 2.0 ** e * (1 + (i % 2) * 0.5 + t)
        y = eotf(x)
        a = np.vander(t, DEGREE + 1, increasing=True) / y[:, None]
        coef.append(np.linalg.lstsq(a, np.ones_like(y), rcond=None)[0])
    return np.array(coef, np.float32)          # [piece][power]


def evaluate(coef, x):
    """the kernel's steps in float32"""
    bits = x.view(np.int32)
    i = (bits >> 22) - 2 * (127 - 16)
    t = ((bits & 0x3fffff) | 0x3f800000).view(np.float32) - np.float32(1)
    p = coef[i, DEGREE]
    for k in range(DEGREE - 1, -1, -1):
        p = (p * t).astype(np.float32) + coef[i, k]
    return p


def hexf(v):
    """a float32 as a C hexadecimal float literal"""
    m, e = float.hex(float(v)).split('p')
    return m.rstrip('0').rstrip('.') + 'p' + e + 'f'


def main():
    coef = fit()
    lo = np.float32(2.0 ** -OCTAVES).view(np.int32)
    hi = np.float32(1.0).view(np.int32)
    worst, n = 0.0, 0
    for start in range(lo, hi, 1 << 24):
        b = np.arange(start, min(start + (1 << 24), hi), 16, dtype=np.int32)
        x = b.view(np.float32)
        ref = eotf(x.astype(np.float64))
        rel = np.abs(evaluate(coef, x).astype(np.float64) - ref) / ref
        worst = max(worst, float(rel.max()))
        n += len(x)
    for k in range(DEGREE + 1):
        for half, name in ((0, 'LO'), (1, 'HI')):
            vals = [hexf(v) for v in coef[16 * half:16 * half + 16, k]]
            lines, line = [], '   '
            for v in vals:
                if len(line) + len(v) + 2 > 76:
                    lines.append(line + ' \\')
                    line = '   '
                line += ' ' + v + ','
            lines.append(line[:-1] + ')')
            print('#define TM_PQ_C%d_%s (float16) ( \\' % (k, name))
            print('\n'.join(lines))
    print('/* largest relative error: %.2e (%d values) */' % (worst, n))


if __name__ == '__main__':
    main()
