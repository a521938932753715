#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING)
"""clclahe against OpenCV's CLAHE.

clclahe must equal cv2.createCLAHE(clip, (tx, ty)).apply(luma) sample for
sample, with the grid reduced to the frame's width and height where the
frame is smaller, at 8 bits (GRAY8, NV12's luma: CV_8U) and 16 bits
(GRAY16_LE, P016_LE's luma: CV_16U), on a photograph and on noise, for frame
sizes the grid divides, does not divide (OpenCV's BORDER_REFLECT_101
padding) and exceeds, with both storages. Run by `meson test` as the test
`opencv-clahe`.
"""
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
    # as tests/opencv_compare.py: a machine without the bindings skips (77)
    print(f'SKIP: {sys.executable} lacks what this test needs ({e})', file=sys.stderr)
    sys.exit(77)

# format -> numpy type of the luma plane
FORMATS = {'GRAY8': np.uint8, 'NV12': np.uint8, 'GRAY16_LE': np.uint16, 'P016_LE': np.uint16}


def photo(w, h, dtype):
    try:
        import skimage.data
        img = cv2.cvtColor(skimage.data.astronaut(), cv2.COLOR_RGB2GRAY)
    except Exception:                           # no sample photo: a synthetic scene
        y, x = np.mgrid[0:512, 0:512]
        img = (((x ^ y) & 127) + ((x - 256) ** 2 + (y - 256) ** 2) // 1024 % 128).astype(np.uint8)
    img = cv2.resize(img, (w, h), interpolation=cv2.INTER_AREA)
    if dtype == np.uint16:                      # 16 bits of detail, not 8 shifted
        img = img.astype(np.uint16) * 257 + (np.arange(w)[None, :] * 7 % 257).astype(np.uint16)
    return img


def noise(w, h, dtype, seed):
    top = 256 if dtype == np.uint8 else 65536
    return np.random.default_rng(seed).integers(0, top, (h, w)).astype(dtype)


def run_clclahe(luma, fmt, props):
    """luma through appsrc ! clclahe ! appsink in a frame of fmt (chroma
    set to a pattern, checked unchanged); returns the output luma"""
    h, w = luma.shape
    info = GstVideo.VideoInfo()
    info.set_format(GstVideo.VideoFormat.from_string(fmt), w, h)
    data = (np.arange(info.size) * 13 % 251).astype(np.uint8)
    stride, bps = info.stride[0], luma.dtype.itemsize
    plane = data[:h * stride].reshape(h, stride)
    plane[:, :w * bps] = luma.view(np.uint8).reshape(h, w * bps)
    caps = f'video/x-raw,format={fmt},width={w},height={h},framerate=30/1'
    arr = push_frame(f'clclahe {props}', caps, data.tobytes())[:info.size]
    res = arr[:h * stride].reshape(h, stride)[:, :w * bps].copy().view(luma.dtype).reshape(h, w)
    chroma_ok = True
    for p in range(1, info.finfo.n_planes):    # NV12, P016_LE: one plane of pairs
        rows, row_bytes = (h + 1) // 2, (w + 1) // 2 * 2 * bps
        o, s = info.offset[p], info.stride[p]
        got_c = arr[o:o + rows * s].reshape(rows, s)[:, :row_bytes]
        sent_c = data[o:o + rows * s].reshape(rows, s)[:, :row_bytes]
        chroma_ok = chroma_ok and np.array_equal(got_c, sent_c)
    return res, chroma_ok


def cases():
    # (w, h), clip, (tx, ty): divided, padded on one side, on both, one
    # pixel, smaller than the grid, OpenCV's default, no clipping, 64x64
    sizes = [(320, 240), (321, 240), (67, 45), (1, 1), (5, 3), (640, 360)]
    grids = [(8, 8), (4, 3), (1, 1), (16, 9), (64, 64)]
    clips = [40.0, 2.0, 0.0, 1000.0]
    for i, (w, h) in enumerate(sizes):
        for j, (tx, ty) in enumerate(grids):
            yield (w, h), clips[(i + j) % len(clips)], (tx, ty)
    yield (1920, 1080), 40.0, (8, 8)


def main():
    Gst.init(None)
    passed = failed = 0
    for fmt, dtype in FORMATS.items():
        for k, ((w, h), clip, (tx, ty)) in enumerate(cases()):
            if dtype == np.uint16 and min(tx, w) * min(ty, h) > 256:
                continue                        # 256 KB of LUT a 16-bit tile
            # the YUV formats' luma takes the grey formats' kernels: a
            # third of the cases, for the planes around it
            if fmt in ('NV12', 'P016_LE') and k % 3:
                continue
            for n, content in enumerate(('photo', 'noise')):
                luma = photo(w, h, dtype) if content == 'photo' else noise(w, h, dtype, w + h)
                want = cv2.createCLAHE(clip, (min(tx, w), min(ty, h))).apply(luma)
                # both storages meet every case, one content each
                for storage in (('buffer', 'image')[(k + n) % 2],):
                    got, chroma_ok = run_clclahe(
                        luma, fmt, f'clip-limit={clip} tiles-x={tx} tiles-y={ty} storage={storage}')
                    diff = np.abs(got.astype(int) - want.astype(int))
                    ok = diff.max() == 0 and chroma_ok
                    passed += ok
                    failed += not ok
                    if not ok or '-v' in sys.argv:
                        print(f'{"ok  " if ok else "FAIL"} {fmt} {w}x{h} {storage} {content} '
                              f'clip={clip} grid={tx}x{ty}: max diff {diff.max()}, '
                              f'{np.count_nonzero(diff)} samples differ, chroma kept {chroma_ok}')
    print(f'{passed} passed, {failed} failed')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
