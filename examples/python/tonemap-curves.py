#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING)
"""An HDR test frame through cltonemap with each curve, side by side.

The frame is made here, in P010_10LE with PQ and BT.2020 (limited range),
from values in nits: a grey ramp from 0 to 10000 nits, ramps of red, green,
blue and a skin tone up to 4000 nits (all even in PQ), and a "scene": a sky gradient, a sun
of 10000 nits, a lit wall of 600 nits and a shadow of 5 nits. It goes
through

    filesrc ! rawvideoparse ! cltonemap curve=CURVE peak-mode=fixed
            source-peak=4000 ! videoconvert ! pngenc

for each curve, and the pictures are put together with their names:

    examples/python/tonemap-curves.py -o docs/elements/cltonemap-curves.png

Use /usr/bin/python3 (numpy, Pillow); run from the repository, the plugin of
build/ is used.
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np
from PIL import Image, ImageDraw

M1, M2 = 2610 / 16384, 2523 / 32
C1, C2, C3 = 3424 / 4096, 2413 / 128, 2392 / 128
CURVES = ["bt2390", "reinhard", "hable", "clip"]


def pq(nits):
    y = np.power(np.clip(nits, 0, 10000) / 10000.0, M1)
    return np.power((C1 + C2 * y) / (1 + C3 * y), M2)


def eotf(e):
    p = np.power(np.clip(e, 0, 1), 1 / M2)
    return 10000 * np.power(np.maximum(p - C1, 0) / (C2 - C3 * p), 1 / M1)


def scene(w, h):
    """Linear BT.2020 RGB in nits, h x w x 3."""
    rgb = np.zeros((h, w, 3))
    x = np.linspace(0, 1, w)
    band = h // 8
    # grey ramp, 0 to 10000 nits, even in PQ (as the eye sees it)
    grey = eotf(x)
    rgb[:band] = grey[None, :, None]
    # colour ramps up to 4000 nits, even in PQ
    for k, c in enumerate([(1, 0, 0), (0, 1, 0), (0, 0, 1), (1.0, 0.55, 0.4)]):
        ramp = eotf(x * pq(4000.0))
        rgb[band * (1 + k):band * (2 + k)] = ramp[None, :, None] * np.array(c)
    # the scene: sky, wall, shadow, sun
    top = band * 5
    yy, xx = np.mgrid[top:h, 0:w]
    sky = 200 + 1800 * (1 - (yy - top) / (h - top))
    rgb[top:] = sky[..., None] * np.array([0.55, 0.75, 1.0])
    rgb[top + (h - top) // 2:, : w // 2] = np.array([600, 520, 430])
    rgb[top + (h - top) // 2:, w // 2:] = np.array([5, 5, 6])
    sun = (xx - 0.8 * w) ** 2 + (yy - top - (h - top) // 4) ** 2 < (h // 14) ** 2
    rgb[top:][sun] = 10000
    return rgb


def p010(rgb):
    """P010_10LE bytes of linear BT.2020 RGB (PQ, BT.2020 matrix, limited)."""
    h, w, _ = rgb.shape
    e = pq(rgb)
    kr, kb = 0.2627, 0.0593
    y = kr * e[..., 0] + (1 - kr - kb) * e[..., 1] + kb * e[..., 2]
    cb = (e[..., 2] - y) / (2 * (1 - kb))
    cr = (e[..., 0] - y) / (2 * (1 - kr))
    yl = np.clip(np.rint(64 + 876 * y), 0, 1023).astype(np.uint16)
    cb = cb.reshape(h // 2, 2, w // 2, 2).mean(axis=(1, 3))
    cr = cr.reshape(h // 2, 2, w // 2, 2).mean(axis=(1, 3))
    cbl = np.clip(np.rint(512 + 896 * cb), 0, 1023).astype(np.uint16)
    crl = np.clip(np.rint(512 + 896 * cr), 0, 1023).astype(np.uint16)
    uv = np.stack([cbl, crl], axis=-1).reshape(h // 2, w)
    return ((yl << 6).astype("<u2").tobytes() + (uv << 6).astype("<u2").tobytes())


def run(raw, w, h, curve, out):
    launch = ("filesrc location=%s blocksize=%d ! rawvideoparse format=p010-10le "
              "width=%d height=%d colorimetry=bt2100-pq ! cltonemap curve=%s "
              "peak-mode=fixed source-peak=4000 ! videoconvert ! "
              "video/x-raw,format=RGB ! pngenc ! filesink location=%s"
              % (raw, w * h * 3, w, h, curve, out))
    subprocess.run(["gst-launch-1.0", "-q"] + launch.split(), check=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-o", "--output", default="tonemap-curves.png")
    ap.add_argument("-s", "--size", default="480x272")
    args = ap.parse_args()
    w, h = (int(v) for v in args.size.split("x"))
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    if os.path.isdir(os.path.join(root, "build", "gst")):
        os.environ["GST_PLUGIN_PATH"] = os.path.join(root, "build", "gst")
    with tempfile.TemporaryDirectory() as tmp:
        raw = os.path.join(tmp, "frame.p010")
        with open(raw, "wb") as f:
            f.write(p010(scene(w, h)))
        tiles = []
        for c in CURVES:
            png = os.path.join(tmp, c + ".png")
            run(raw, w, h, c, png)
            tiles.append(Image.open(png).convert("RGB"))
    sheet = Image.new("RGB", (2 * w, 2 * h + 40), "white")
    draw = ImageDraw.Draw(sheet)
    for k, (c, t) in enumerate(zip(CURVES, tiles)):
        x, y = (k % 2) * w, (k // 2) * (h + 20)
        sheet.paste(t, (x, y + 20))
        draw.text((x + 4, y + 4), "curve=%s (source-peak 4000, target 100 nits)"
                  % c, fill="black")
    os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
    sheet.save(args.output)
    print("wrote", args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
