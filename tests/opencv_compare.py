#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING)
"""clgaussian against OpenCV.

For radius 3..15 and sigma 0..5, clgaussian must match
cv2.GaussianBlur(src, (2r+1, 2r+1), sigma, borderType=cv2.BORDER_REPLICATE)
within +-1 per sample (alpha excepted: clgaussian keeps it unchanged), on a
photograph and on noise, for GRAY8, RGB and RGBA, with both memory kinds.
Run by `meson test` as the test `opencv`.
"""
import itertools
import sys

try:
    import cv2
    import gi
    import numpy as np
    gi.require_version('Gst', '1.0')
    gi.require_version('GstVideo', '1.0')
    from gi.repository import Gst, GstVideo
    from gstpush import push_frame
except (ImportError, ValueError) as e:
    # the Python bindings of GStreamer have no binary wheel: a machine
    # without them (the lent GPU machine) skips, as meson expects (77)
    print(f'SKIP: {sys.executable} lacks what this test needs ({e})', file=sys.stderr)
    sys.exit(77)

CHANNELS = {'GRAY8': 1, 'RGB': 3, 'RGBA': 4}


def photo(w, h, channels):
    try:
        import skimage.data
        img = skimage.data.astronaut()          # RGB
    except Exception:                           # no sample photo: a synthetic scene
        y, x = np.mgrid[0:512, 0:512]
        img = np.dstack([(x ^ y) & 255, (x * 3 + y) & 255, ((x - 256) ** 2 + (y - 256) ** 2) % 256])
        img = img.astype(np.uint8)
    img = cv2.resize(img, (w, h), interpolation=cv2.INTER_AREA)
    if channels == 1:
        return cv2.cvtColor(img, cv2.COLOR_RGB2GRAY)[:, :, None]
    if channels == 4:
        alpha = (np.arange(w)[None, :] + np.arange(h)[:, None]).astype(np.uint8)
        return np.dstack([img, alpha])
    return img


def noise(w, h, channels, seed):
    return np.random.default_rng(seed).integers(0, 256, (h, w, channels), dtype=np.uint8)


def run_clgaussian(frame, fmt, props):
    h, w, _ = frame.shape
    info = GstVideo.VideoInfo()
    info.set_format(GstVideo.VideoFormat.from_string(fmt), w, h)
    stride = info.stride[0]
    data = np.zeros((h, stride), np.uint8)
    data[:, :w * frame.shape[2]] = frame.reshape(h, -1)
    caps = f'video/x-raw,format={fmt},width={w},height={h},framerate=30/1'
    arr = push_frame(f'clgaussian {props}', caps, data.tobytes())
    arr = arr[:h * stride].reshape(h, stride)
    res = arr[:, :w * frame.shape[2]].reshape(h, w, frame.shape[2]).copy()
    return res


def main():
    Gst.init(None)
    cases = [(r, s) for r in (3, 4, 5, 7, 10, 15) for s in (0.0, 1.0, 2.5, 5.0)]
    passed = failed = 0
    for fmt, (w, h), memory in itertools.chain(
            itertools.product(CHANNELS, [(321, 241)], ('buffer', 'image')),
            itertools.product(CHANNELS, [(1920, 1080)], ('buffer',))):
        c = CHANNELS[fmt]
        for content in ('photo', 'noise'):
            frame = photo(w, h, c) if content == 'photo' else noise(w, h, c, w + c)
            for radius, sigma in cases:
                if w > 1000 and (radius, sigma) not in ((3, 0.0), (7, 2.5), (15, 5.0)):
                    continue
                got = run_clgaussian(frame, fmt, f'radius={radius} sigma={sigma} storage={memory}')
                want = cv2.GaussianBlur(frame, (2 * radius + 1, 2 * radius + 1), sigma,
                                        borderType=cv2.BORDER_REPLICATE)
                want = want.reshape(frame.shape)
                colour = slice(0, 3) if c == 4 else slice(0, c)
                diff = np.abs(got[:, :, colour].astype(int) - want[:, :, colour].astype(int))
                alpha_ok = c != 4 or np.array_equal(got[:, :, 3], frame[:, :, 3])
                ok = diff.max() <= 1 and alpha_ok
                passed += ok
                failed += not ok
                if not ok or '-v' in sys.argv:
                    print(f'{"ok  " if ok else "FAIL"} {fmt} {w}x{h} {memory} {content} '
                          f'radius={radius} sigma={sigma}: max diff {diff.max()}, '
                          f'{np.mean(diff == 0) * 100:.2f}% equal, alpha kept {alpha_ok}')
    print(f'{passed} passed, {failed} failed')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
