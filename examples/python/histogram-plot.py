#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING)
"""Renders clhistogram's live histograms and statistics with matplotlib.

The pipeline:

    SOURCE ! videoconvert ! video/x-raw,format=RGBx
           ! clhistogram channels=all bins=256 ! videoconvert ! video/x-raw,format=RGB
           ! appsink

The frames come out of the appsink; the statistics of each frame come on the
bus as a `clhistogram` element message whose `timestamp` is the frame's PTS.
clhistogram reads its counts back while the next frames are counted, and
posts a frame's message 2 frames later (in frame order, all of them before
EOS), on CPU and GPU devices alike: the program waits for the message of
each frame it pulls. The picture shows the frame,
the luma, red, green and blue histograms with the mean, median, low (1st
percentile), high (99th) and log-average (as the level 255 * key), and the
luma statistics over time.

    examples/python/histogram-plot.py                  # PNG every 10 frames, headless
    examples/python/histogram-plot.py --window         # a live window
    examples/python/histogram-plot.py --input camera --window
    examples/python/histogram-plot.py --input clip.webm --every 25

The default input is a clip made from scikit-image's photographs (a window
panning across each one). Use /usr/bin/python3 (the one with the GStreamer
bindings); run from the repository, the plugin of build/ is used.
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import clfexamples  # noqa: E402

COLOURS = {'luma': '0.25', 'red': 'tab:red', 'green': 'tab:green', 'blue': 'tab:blue'}


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    p.add_argument('--input', default='photos',
                   help='photos (default: a clip of photographs), camera, test, '
                        'a video or picture file, or a gst-launch source description')
    p.add_argument('--frames', type=int, default=60,
                   help='frames to process (default 60; 0: until the end or the window closes)')
    p.add_argument('--every', type=int, default=10,
                   help='draw every N frames (default 10)')
    p.add_argument('--window', action='store_true',
                   help='draw into a window instead of PNG files')
    p.add_argument('--output-dir', default='histogram-plot-output',
                   help='where the PNG files go (default histogram-plot-output/)')
    p.add_argument('--size', default='320x240', help='frame size of the photo clip')
    p.add_argument('--device', default='', help='OpenCL device (see the device property)')
    p.add_argument('--storage', default='auto', choices=('auto', 'buffer', 'image'))
    return p.parse_args()


class Plot:
    """One figure, redrawn in place: the frame, four histograms, a time line."""

    def __init__(self, window):
        import matplotlib
        if not window:
            matplotlib.use('Agg')
        import matplotlib.pyplot as plt
        self.plt = plt
        if window:
            plt.ion()
        self.fig = plt.figure(figsize=(13, 7.5), layout='constrained')
        grid = self.fig.add_gridspec(4, 2, width_ratios=(1, 1.25), height_ratios=(1, 1, 1, 1))
        self.ax_frame = self.fig.add_subplot(grid[0:3, 0])
        self.ax_time = self.fig.add_subplot(grid[3, 0])
        self.ax_hist = [self.fig.add_subplot(grid[i, 1]) for i in range(4)]
        self.history = []               # (seconds, mean, median, 255 * key) of luma

    def draw(self, frame, stats, title):
        chans = stats['channels']
        self.ax_frame.clear()
        self.ax_frame.imshow(frame)
        self.ax_frame.set_title(title, fontsize=10)
        self.ax_frame.axis('off')

        bins = stats['bins']
        edges = np.arange(bins + 1) * 256.0 / bins
        for ax in self.ax_hist:
            ax.clear()
            ax.set_visible(False)
        for i, name in enumerate(chans[:4]):
            ax = self.ax_hist[i]
            ax.set_visible(True)
            counts = np.asarray(stats['histogram'][i], dtype=float)
            share = counts / max(stats['pixels'], 1) * 100
            ax.stairs(share, edges, fill=True, color=COLOURS.get(name, 'k'), alpha=0.55)
            key_level = 255 * stats['log-average'][i]
            marks = [('mean', stats['mean'][i], '-', 'k'),
                     ('median', stats['median'][i], '--', 'k'),
                     ('low', stats['low'][i], ':', '0.4'),
                     ('high', stats['high'][i], ':', '0.4'),
                     ('log-average', key_level, '-.', 'tab:purple')]
            for label, x, style, colour in marks:
                ax.axvline(x, linestyle=style, color=colour, linewidth=1.2, label=label)
            ax.set_xlim(0, 256)
            # a few bins (black, white, a flat sky) can dwarf the rest: scale
            # to the others and say which are off the scale
            top = max(np.sort(share)[-4] * 1.25, 1e-3) if len(share) > 4 else share.max()
            if share.max() > top:
                ax.set_ylim(0, top)
                off = [f'{edges[j]:.0f}: {share[j]:.1f}%' for j in np.nonzero(share > top)[0][:3]]
                ax.text(0.995, 0.93, 'off scale, level ' + ', '.join(off), transform=ax.transAxes,
                        ha='right', va='top', fontsize=7, color='0.3')
            ax.set_ylabel('% of pixels', fontsize=8)
            ax.tick_params(labelsize=8)
            ax.set_title(
                f"{name}:  mean {stats['mean'][i]:.1f}   median {stats['median'][i]}   "
                f"low {stats['low'][i]}   high {stats['high'][i]}   "
                f"log-average {stats['log-average'][i]:.3f} (level {key_level:.0f})   "
                f"std {np.sqrt(stats['variance'][i]):.1f}", loc='left', fontsize=8.5)
        self.ax_hist[len(chans[:4]) - 1].set_xlabel('8-bit level', fontsize=8)

        # the time line: the same line styles as the marks in the histograms
        self.ax_time.clear()
        if self.history:
            h = np.array(self.history)
            t = h[:, 0]
            self.ax_time.plot(t, h[:, 1], '-', color='k', label='mean')
            self.ax_time.plot(t, h[:, 2], '--', color='k', label='median')
            self.ax_time.plot(t, h[:, 3], ':', color='0.4', label='low / high')
            self.ax_time.plot(t, h[:, 4], ':', color='0.4')
            self.ax_time.plot(t, h[:, 5], '-.', color='tab:purple', label='log-average (x 255)')
            self.ax_time.set_ylim(0, 262)
            self.ax_time.set_xlabel('stream time (s)', fontsize=8)
            self.ax_time.set_title('luma, every frame so far (same marks as in the histograms)',
                                   fontsize=8.5, loc='left')
            self.ax_time.tick_params(labelsize=8)
            self.ax_time.legend(fontsize=7, loc='upper center', ncol=4,
                                bbox_to_anchor=(0.5, -0.35), frameon=False)

    def record(self, stats):
        """Keeps the luma statistics of every frame for the time line."""
        chans = stats['channels']
        if 'luma' in chans:
            i = chans.index('luma')
            self.history.append((stats['timestamp'] / 1e9, stats['mean'][i],
                                 stats['median'][i], stats['low'][i], stats['high'][i],
                                 255 * stats['log-average'][i]))

    def save(self, path):
        self.fig.savefig(path, dpi=80)

    def show(self):
        self.fig.canvas.draw_idle()
        self.plt.pause(0.001)
        return self.plt.fignum_exists(self.fig.number)


def main():
    args = parse_args()
    if args.window:
        clfexamples.check_display()
    clfexamples.use_build_tree()
    import gi
    gi.require_version('Gst', '1.0')
    from gi.repository import Gst
    Gst.init(None)
    clfexamples.check_plugin(Gst)

    clip = None
    if args.input == 'photos':
        w, h = (int(v) for v in args.size.split('x'))
        clip = clfexamples.PhotoClip(Gst, w, h, per_photo=12, frames=args.frames)
        source = clip.description()
    else:
        source = clfexamples.source_description(args.input)
    device = f' device="{args.device}"' if args.device else ''
    pipe = Gst.parse_launch(
        f'{source} ! videoconvert ! video/x-raw,format=RGBx ! '
        f'clhistogram name=hist channels=all bins=256 storage={args.storage}{device} ! '
        f'videoconvert ! video/x-raw,format=RGB ! '
        f'appsink name=sink sync={"true" if args.window else "false"} max-buffers=4')
    if clip:
        clip.attach(pipe.get_by_name('clip'))
    sink = pipe.get_by_name('sink')
    bus = pipe.get_bus()

    plot = Plot(args.window)
    if not args.window:
        os.makedirs(args.output_dir, exist_ok=True)
    pipe.set_state(Gst.State.PLAYING)
    try:
        return run(args, Gst, pipe, sink, bus, plot)
    finally:
        pipe.set_state(Gst.State.NULL)


def run(args, Gst, pipe, sink, bus, plot):
    pending = {}                        # clhistogram messages by timestamp
    n = 0
    status = 0
    written = []
    while args.frames == 0 or n < args.frames:
        sample = sink.emit('try-pull-sample', 10 * Gst.SECOND)
        # clhistogram reads its counts back while the next frames are
        # counted: a frame's message can come a little after the frame (in
        # order, and all of them before EOS); wait for it
        pts = sample.get_buffer().pts if sample else None
        while True:
            if pts is None or pts in pending:
                msg = bus.pop_filtered(Gst.MessageType.ELEMENT | Gst.MessageType.ERROR)
            else:
                msg = bus.timed_pop_filtered(5 * Gst.SECOND,
                                             Gst.MessageType.ELEMENT | Gst.MessageType.ERROR)
            if msg is None:
                break
            if msg.type == Gst.MessageType.ERROR:
                err, debug = msg.parse_error()
                print(f'error: {err.message}\n  {debug}', file=sys.stderr)
                status = 1
            stats = clfexamples.histogram_message(msg)
            if stats:
                pending[stats['timestamp']] = stats
        if sample is None or status:
            break                       # EOS, error, or nothing for 10 s
        buf = sample.get_buffer()
        stats = pending.pop(buf.pts, None)
        if stats is None:
            print(f'frame {n}: no clhistogram message for PTS {buf.pts}', file=sys.stderr)
            status = 1
            break
        plot.record(stats)
        if n % args.every == 0:
            caps = sample.get_caps().get_structure(0)
            width, height = caps.get_value('width'), caps.get_value('height')
            ok, info = buf.map(Gst.MapFlags.READ)
            # rows may be padded to 4 bytes
            stride = len(info.data) // height
            frame = np.frombuffer(info.data, np.uint8).reshape(height, stride)[:, :width * 3]
            frame = frame.reshape(height, width, 3).copy()
            buf.unmap(info)
            luma = stats['channels'].index('luma') if 'luma' in stats['channels'] else 0
            plot.draw(frame, stats,
                      f'frame {n}, {stats["timestamp"] / 1e9:.2f} s, {width}x{height}, '
                      f'{stats["pixels"]} pixels per channel')
            print(f'frame {n:4d}  t={stats["timestamp"] / 1e9:6.2f}s  luma mean '
                  f'{stats["mean"][luma]:6.1f}  median {stats["median"][luma]:3d}  '
                  f'low {stats["low"][luma]:3d}  high {stats["high"][luma]:3d}  '
                  f'log-average {stats["log-average"][luma]:.3f}', flush=True)
            if args.window:
                if not plot.show():
                    break               # the window was closed
            else:
                path = os.path.join(args.output_dir, f'histogram-{n:05d}.png')
                plot.save(path)
                written.append(path)
        n += 1
    if written:
        print(f'wrote {len(written)} pictures: {written[0]} ... {written[-1]}')
    if n == 0 and status == 0:
        print('no frame came out', file=sys.stderr)
        status = 1
    return status


if __name__ == '__main__':
    sys.exit(main())
