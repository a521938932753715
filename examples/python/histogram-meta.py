#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING)
"""Statistics that travel with the frame: clhistogram attach-meta=true puts
each frame's histogram and statistics on the buffer itself, as a custom meta
named "GstClHistogramMeta", so an appsink consumer reads them with the frame
instead of matching bus messages to buffers by timestamp.

    videotestsrc ! clhistogram attach-meta=true ! appsink

    examples/python/histogram-meta.py                   # 10 frames, 8 bins
    examples/python/histogram-meta.py --frames 3 --bins 4 --check
    examples/python/histogram-meta.py --format P010_10LE --bins 1024

With a format of more than 8 bits (P010_10LE, what hardware decoders give
for HDR video; I420_10LE, GRAY16_LE, RGBA64_LE...) the statistics are in
that format's levels (0..1023 for 10 bits) and the field "depth" says so.

--check (used by the test suite) also keeps the bus messages and fails
unless every frame carried a meta equal to its message, field by field.
"""
import argparse
import sys

import gi

gi.require_version('Gst', '1.0')
from gi.repository import Gst  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--frames', type=int, default=10)
    ap.add_argument('--bins', type=int, default=8)
    ap.add_argument('--format', default='RGBx',
                    help='video format of the frames (default RGBx; e.g. '
                    'P010_10LE, RGBA64_LE)')
    ap.add_argument('--check', action='store_true',
                    help='compare every meta with its bus message')
    args = ap.parse_args()

    Gst.init(None)
    pipe = Gst.parse_launch(
        f'videotestsrc num-buffers={args.frames} pattern=ball ! '
        f'video/x-raw,format={args.format},width=320,height=240 ! '
        f'clhistogram attach-meta=true channels=all bins={args.bins} '
        f'post-messages={"true" if args.check else "false"} ! '
        'appsink name=sink sync=false')
    sink = pipe.get_by_name('sink')
    bus = pipe.get_bus()
    pipe.set_state(Gst.State.PLAYING)
    metas = []
    while True:
        sample = sink.emit('pull-sample')
        if sample is None:
            break
        buf = sample.get_buffer()
        meta = buf.get_custom_meta('GstClHistogramMeta')
        if meta is None:
            print(f'frame {len(metas)}: no GstClHistogramMeta', file=sys.stderr)
            return 1
        s = meta.get_structure()
        metas.append(s.copy())
        channels = list(s.get_value('channels'))
        luma = channels.index('luma')
        print(f"{buf.pts / 1e9:6.3f}s  luma mean {s.get_value('mean')[luma]:6.1f} "
              f"median {s.get_value('median')[luma]:3d} "
              f"key {s.get_value('log-average')[luma]:.3f} "
              f"({s.get_value('depth')}-bit)  "
              + (f"histogram {list(s.get_value('histogram')[luma])}"
                 if args.bins <= 32 else f"histogram of {args.bins} bins"))
    messages = []
    while True:     # before NULL, which flushes the bus
        msg = bus.pop_filtered(Gst.MessageType.ELEMENT)
        if msg is None:
            break
        if msg.get_structure().get_name() == 'clhistogram':
            messages.append(msg.get_structure())
    pipe.set_state(Gst.State.NULL)

    if args.check:
        if len(metas) != args.frames or len(messages) != len(metas):
            print(f'{len(metas)} metas, {len(messages)} messages, '
                  f'{args.frames} frames', file=sys.stderr)
            return 1
        for i, (m, s) in enumerate(zip(metas, messages)):
            if not m.is_equal(s):
                print(f'frame {i}: meta and message differ:\n  {m.to_string()}\n'
                      f'  {s.to_string()}', file=sys.stderr)
                return 1
        print(f'{len(metas)} frames: every meta equals its message')
    return 0


if __name__ == '__main__':
    sys.exit(main())
