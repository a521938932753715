#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING)
"""HDR test frames from bench.py's 8 photographs, as raw P010_10LE PQ.

    bench/hdrphotos.py WIDTH HEIGHT FRAMES OUT.p010

Each photograph's sRGB is taken to linear light, its brightest tenth
stretched towards 1000 nits (a graded HDR picture's highlights), the rest
at up to 200 nits, then PQ-encoded, turned into BT.2020 non-constant
luminance Y'CbCr of limited range and 4:2:0 (each block's chroma the mean
of its four pixels'). The frames rotate through the 8 photographs: content
whose neighbouring pixels differ, where the smpte bars of videotestsrc are
flat areas (bench/tonemap.sh takes either).
"""
import sys

import numpy as np

sys.path.insert(0, __file__.rsplit('/', 1)[0])
from bench import photos_rgb  # noqa: E402

M1, M2 = 2610 / 16384, 2523 / 32
C1, C2, C3 = 3424 / 4096, 2413 / 128, 2392 / 128
KR, KB = 0.2627, 0.0593


def pq_inverse(nits):
    y = np.clip(nits / 10000.0, 0.0, 1.0) ** M1
    return ((C1 + C2 * y) / (1.0 + C3 * y)) ** M2


def p010(rgb8):
    c = rgb8.astype(np.float64) / 255.0
    lin = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    nits = 200.0 * lin
    bright = lin > 0.9
    nits[bright] = 180.0 + (lin[bright] - 0.9) * 8200.0   # 180..1000 nits
    e = pq_inverse(nits)
    y = KR * e[..., 0] + (1 - KR - KB) * e[..., 1] + KB * e[..., 2]
    cb = (e[..., 2] - y) / (2 * (1 - KB))
    cr = (e[..., 0] - y) / (2 * (1 - KR))
    h, w = y.shape
    cb = cb.reshape(h // 2, 2, w // 2, 2).mean(axis=(1, 3))
    cr = cr.reshape(h // 2, 2, w // 2, 2).mean(axis=(1, 3))
    yl = np.clip(np.rint(64 + 876 * y), 0, 1023).astype(np.uint16)
    uv = np.empty((h // 2, w), np.uint16)
    uv[:, 0::2] = np.clip(np.rint(512 + 896 * cb), 0, 1023)
    uv[:, 1::2] = np.clip(np.rint(512 + 896 * cr), 0, 1023)
    return (yl << 6).tobytes() + (uv << 6).tobytes()


def main():
    w, h, n, out = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), \
        sys.argv[4]
    frames = [p010(img) for img in photos_rgb(w, h)]
    with open(out, 'wb') as f:
        for i in range(n):
            f.write(frames[i % len(frames)])


if __name__ == '__main__':
    main()
