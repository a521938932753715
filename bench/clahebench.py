#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING)
"""clclahe against OpenCV's CLAHE on the CPU, in the same run.

    GST_PLUGIN_PATH=build/gst bench/clahebench.py [--sizes 1080p,4k]
        [--formats GRAY8,GRAY16_LE] [--repeat 5] [--frames 30] [--props ...]

For each format and size, on bench.py's 8 photographs (rotating): the time a
frame of

- `appsrc ! clclahe ! fakesink` less `appsrc ! identity ! fakesink` (the
  harness), as bench/bench.py measures elements (its time_pipeline), and the
  element's kernel time (cl-profile kernel-ns) from a run with profiling;
- `cv2.createCLAHE(40, (8, 8)).apply()` on the same frames' luma, on as
  many threads as OpenCV takes (cv2.getNumThreads()); for formats of 10 and
  12 bits on the stored 16-bit words (CV_16U: OpenCV has nothing nearer).

Every configuration runs --repeat times, round-robin in a shuffled order
each round (a load that comes and goes hits all alike); the table gives
medians and the spread. Not a test: docs/elements/clclahe.md quotes it.
"""
import argparse
import os
import random
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402 (bench.py's frames and pipeline timing)
from bench import Config, Frames, Gst, SIZES, NFRAMES  # noqa: E402


def luma_arrays(fs):
    """The luma planes of a FrameSet as numpy arrays (uint8 or uint16: for
    P010_10LE the stored words, cv2's nearest type, CV_16U)."""
    bps = fs.vi.finfo.pixel_stride[0] if fs.fmt.startswith('GRAY') else \
        (2 if fs.vi.finfo.bits > 8 else 1)
    stride = fs.vi.stride[0]
    out = []
    for d in fs.datas:
        plane = np.frombuffer(d, np.uint8)[:fs.h * stride].reshape(fs.h, stride)
        out.append(np.ascontiguousarray(plane[:, :fs.w * bps]).view(
            np.uint16 if bps == 2 else np.uint8))
    return out


def cpu_blend_paths():
    """Which 8- and 10-bit blends a POCL device of this host takes: the
    planar ones where the CPU has AVX-512 VBMI and GST_CL_VBMI is not 0
    (gstcldevice.c), else the quad ones."""
    try:
        with open('/proc/cpuinfo') as f:
            vbmi = ' avx512vbmi' in f.read()
    except OSError:
        vbmi = False
    if os.environ.get('GST_CL_VBMI') == '0':
        return 'on a CPU device: quad blends (GST_CL_VBMI=0)'
    return ('on a CPU device: planar blends (AVX-512 VBMI)' if vbmi
            else 'on a CPU device: quad blends (no AVX-512 VBMI)')


def time_cv2(clahe, lumas, n, warm):
    for i in range(warm):
        clahe.apply(lumas[i % NFRAMES])
    t0 = time.perf_counter()
    for i in range(n):
        clahe.apply(lumas[i % NFRAMES])
    return (time.perf_counter() - t0) / n


def main():
    import cv2
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--sizes', default='1080p')
    ap.add_argument('--formats', default='GRAY8,GRAY16_LE')
    ap.add_argument('--repeat', type=int, default=5)
    ap.add_argument('--frames', type=int, default=30)
    ap.add_argument('--warm', type=int, default=5)
    ap.add_argument('--props', default='clip-limit=40 tiles-x=8 tiles-y=8')
    args = ap.parse_args()
    Gst.init(None)
    frames = Frames()
    clahe = cv2.createCLAHE(40.0, (8, 8))
    runs = []                   # (format, size, what, config or None)
    for size in args.sizes.split(','):
        for fmt in args.formats.split(','):
            runs.append((fmt, size, 'identity', Config('id', size, fmt, 'identity', 'identity')))
            runs.append((fmt, size, 'clclahe', Config('cl', size, fmt, 'filter',
                                                      f'clclahe {args.props}')))
            runs.append((fmt, size, 'kernel', Config('k', size, fmt, 'filter',
                                                     f'clclahe {args.props}')))
            runs.append((fmt, size, 'cv2', None))
    times = {(f, s, w): [] for f, s, w, _ in runs}
    device = None
    for r in range(args.repeat):
        order = list(runs)
        random.shuffle(order)
        for fmt, size, what, cfg in order:
            fs = frames.get('photo', fmt, size)
            if what == 'cv2':
                t = time_cv2(clahe, luma_arrays(fs), args.frames, args.warm)
            elif what == 'kernel':
                _, device, _, prof = bench.time_pipeline(cfg, fs, args.frames, args.warm,
                                                         profiling=True)
                t = prof['kernel-ns'] / 1e9 if prof else float('nan')
            else:
                t, dev, warnings, _ = bench.time_pipeline(cfg, fs, args.frames, args.warm)
                device = dev or device
            times[(fmt, size, what)].append(t)
        bench.log(f'round {r + 1}/{args.repeat} done')

    def med(k):
        xs = [x for x in times[k] if x == x]
        return statistics.median(xs) if xs else float('nan')

    def spread(k):
        xs = [x for x in times[k] if x == x]
        m = statistics.median(xs) if xs else 0
        return (max(xs) - min(xs)) / m * 100 if m else 0

    print(f'clclahe ({args.props}) on "{device}" against cv2 {cv2.__version__} '
          f'createCLAHE(40, (8, 8)) on {cv2.getNumThreads()} threads; '
          f'{os.cpu_count()} CPUs; medians of {args.repeat} rounds of {args.frames} frames; '
          f'{cpu_blend_paths()}\n')
    print('| format | size | clclahe, element only | its kernels (kernel-ns) | cv2 | cv2 / clclahe |')
    print('|---|---|---|---|---|---|')
    for size in args.sizes.split(','):
        for fmt in args.formats.split(','):
            el = med((fmt, size, 'clclahe')) - med((fmt, size, 'identity'))
            k = med((fmt, size, 'kernel'))
            cv = med((fmt, size, 'cv2'))
            print(f'| {fmt} | {size} | {el * 1e3:.2f} ms (+-{spread((fmt, size, "clclahe")) / 2:.0f}%) '
                  f'| {k * 1e3:.2f} ms | {cv * 1e3:.2f} ms (+-{spread((fmt, size, "cv2")) / 2:.0f}%) '
                  f'| {cv / el:.2f}x |')
    return 0


if __name__ == '__main__':
    sys.exit(main())
