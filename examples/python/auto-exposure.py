#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING)
"""Auto-exposure: clhistogram's statistics drive videobalance so that an
under-exposed picture is corrected while it plays.

    SOURCE ! videoconvert ! video/x-raw,format=RGBx
      ! videobalance name=darken        the simulated under-exposure (--darken)
      ! clhistogram name=before         what the camera delivers
      ! videobalance name=correct       set by the controller
      ! clhistogram name=after          what the controller looks at
      ! appsink (headless) or a window

The darkening (--darken K, --haze H) is what a dim, hazy camera gives: every
level scaled by K (videobalance contrast K, saturation K) and black lifted by
H (brightness H). videobalance works on limited-range luma, Y' = 16 +
(Y - 16) contrast + 255 brightness, so contrast scales around black and
brightness moves black.

The controller closes two loops on the corrected luma, from the `after`
message of every frame:

    exposure:  contrast <- contrast * (target_mean / mean) ** rate
               (saturation follows contrast, so colours scale with the levels)
    black:     brightness <- brightness + rate * (target_low - low) / 255

`mean` is the mean luma (default target 110, a well exposed photograph);
`low` is the 1st percentile (clhistogram's low-percentile): the black point.
rate (0.5) damps the loops. videobalance takes contrast in 0..2, so the
exposure loop can correct one stop at most.

With --target-key K the exposure loop drives the log-average ("key")
instead: the measure photographic tone mapping uses for how bright a picture
looks (a mean in log space, where highlights and clipped pixels weigh little;
tone mapping's "middle grey" is 0.18). In log space the darkest pixels weigh
the most, so the key moves a lot with the black point: it suits scenes
without large black areas, or --haze 0 (no black-point loop needed).

The controller runs in a sync bus handler, in the streaming thread. clhistogram
posts a frame's message a fixed number of frames after the frame (2: it reads
the counts back while the next frames are counted), so the loop has a dead
time: by the time frame n's message comes, frames n + 1 and n + 2 have gone
through `correct` with older values. A probe on `correct`'s source pad
records the values each frame went through (by timestamp), and each message
corrects from the values of *its* frame, not from the latest ones: the same
measurement applied twice gives the same values, so the delay cannot wind
the loop up. The run is the same every time (a bus watch in the main loop
would lag by an unknown number of frames more).

    examples/python/auto-exposure.py                 # headless: before.png, after.png, auto-exposure.png
    examples/python/auto-exposure.py --window        # the corrected picture live
    examples/python/auto-exposure.py --input photos --window --frames 0
    examples/python/auto-exposure.py --input camera --window --darken 0.6 --haze 0

Use /usr/bin/python3 (the one with the GStreamer bindings).
"""
import argparse
import math
import os
import sys
import threading

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import clfexamples  # noqa: E402


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    p.add_argument('--input', default='photo',
                   help='photo (default: one photograph, still), photos (a clip of '
                        'photographs), camera, test, a video or picture file, or a '
                        'gst-launch source description')
    p.add_argument('--frames', type=int, default=40,
                   help='frames to run (default 40; 0: until the end or Ctrl-C)')
    p.add_argument('--darken', type=float, default=0.5,
                   help='simulated exposure, a factor on every level, 0..1 (default 0.5, '
                        'one stop under; 1: none)')
    p.add_argument('--haze', type=float, default=0.04,
                   help='simulated lift of black, as videobalance brightness (default 0.04)')
    p.add_argument('--target-low', type=float, default=2,
                   help='black point to reach: the 1st percentile of the luma (default 2)')
    p.add_argument('--target-mean', type=float, default=110,
                   help='mean luma to reach, in 8-bit levels (default 110)')
    p.add_argument('--target-key', type=float, default=None,
                   help='drive the log-average luma (0..1, e.g. 0.18) to this instead of the mean')
    p.add_argument('--rate', type=float, default=0.5,
                   help='how much of the error one frame corrects, in log space (default 0.5)')
    p.add_argument('--window', action='store_true', help='show the corrected picture live')
    p.add_argument('--output-dir', default='auto-exposure-output',
                   help='where the PNG files go (default auto-exposure-output/)')
    p.add_argument('--check', action='store_true',
                   help='exit with 1 unless the loop converged (within 3 %%) by the last frame')
    p.add_argument('--device', default='', help='OpenCL device (see the device property)')
    return p.parse_args()


class Controller:
    """The two loops. on_before() and on_after() run in the streaming thread."""

    def __init__(self, correct, args):
        self.correct = correct
        self.measure, self.target = 'mean', args.target_mean
        if args.target_key is not None:
            self.measure, self.target = 'log-average', args.target_key
        self.target_low = args.target_low
        self.rate = args.rate
        self.contrast, self.brightness = 1.0, 0.0
        self.lock = threading.Lock()
        self.before = {}                # timestamp -> stats of the input
        self.applied = {}               # timestamp -> (contrast, brightness) it went through
        self.rows = []                  # one per frame, for the print and the plot
        self.converged_at = None

    def on_before(self, stats):
        with self.lock:
            self.before[stats['timestamp']] = stats

    def on_corrected(self, pts):
        """A frame leaves `correct`: remember what it went through."""
        with self.lock:
            self.applied[pts] = (self.contrast, self.brightness)

    def on_after(self, stats):
        value, low = stats[self.measure][0], stats['low'][0]
        with self.lock:
            applied = self.applied.pop(stats['timestamp'], (self.contrast, self.brightness))
        error = self.target / max(value, 1e-3)
        settled = abs(math.log(error)) < math.log(1.03) and abs(low - self.target_low) <= 3
        if not settled:
            self.converged_at = None
        elif self.converged_at is None:
            self.converged_at = len(self.rows)
        # from what this frame went through; videobalance takes contrast and
        # saturation in 0..2, brightness in -1..1
        self.contrast = min(max(applied[0] * error ** self.rate, 0.0), 2.0)
        self.brightness = min(max(applied[1] + self.rate * (self.target_low - low) / 255,
                                  -1.0), 1.0)
        self.correct.set_property('contrast', self.contrast)
        self.correct.set_property('saturation', self.contrast)
        self.correct.set_property('brightness', self.brightness)
        with self.lock:
            before = self.before.pop(stats['timestamp'], None)
        row = dict(frame=len(self.rows), contrast=applied[0], brightness=applied[1],
                   before=before[self.measure][0] if before else float('nan'),
                   before_stats=before, after_stats=stats, after=value, low=low,
                   mean=stats['mean'][0])
        self.rows.append(row)
        b = before or stats
        print(f"frame {row['frame']:3d}  in: mean {b['mean'][0]:5.1f} key {b['log-average'][0]:.3f} "
              f"low {b['low'][0]:3d}   out: mean {stats['mean'][0]:5.1f} key "
              f"{stats['log-average'][0]:.3f} low {low:3d}   with contrast {applied[0]:.3f} "
              f"brightness {applied[1]:+.3f}", flush=True)


def frame_of(sample, Gst):
    buf = sample.get_buffer()
    s = sample.get_caps().get_structure(0)
    w, h = s.get_value('width'), s.get_value('height')
    ok, info = buf.map(Gst.MapFlags.READ)
    stride = len(info.data) // h
    arr = np.frombuffer(info.data, np.uint8).reshape(h, stride)[:, :w * 4]
    frame = arr.reshape(h, w, 4)[:, :, :3].copy()
    buf.unmap(info)
    return frame


def write_pictures(outdir, first, last, ctl):
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    os.makedirs(outdir, exist_ok=True)
    plt.imsave(os.path.join(outdir, 'before.png'), first)
    plt.imsave(os.path.join(outdir, 'after.png'), last)

    fig = plt.figure(figsize=(12, 7.5), layout='constrained')
    grid = fig.add_gridspec(2, 3, height_ratios=(1.3, 1))
    ax = fig.add_subplot(grid[0, 0])
    ax.imshow(first)
    ax.set_title('before: the under-exposed input (frame 0)', fontsize=9)
    ax.axis('off')
    ax = fig.add_subplot(grid[0, 1])
    ax.imshow(last)
    ax.set_title(f'after: corrected (frame {len(ctl.rows) - 1})', fontsize=9)
    ax.axis('off')

    ax = fig.add_subplot(grid[0, 2])
    for stats, label, colour in ((ctl.rows[0]['before_stats'], 'before', '0.55'),
                                 (ctl.rows[-1]['after_stats'], 'after', 'tab:orange')):
        if stats is None:
            continue
        counts = np.asarray(stats['histogram'][0], float)
        if len(counts) % 64 == 0:       # 64 bins of 4 levels: a smoother picture
            counts = counts.reshape(64, -1).sum(axis=1)
        edges = np.arange(len(counts) + 1) * 256.0 / len(counts)
        ax.stairs(counts / stats['pixels'] * 100, edges, fill=True, alpha=0.5,
                  color=colour, label=f"{label}: mean {stats['mean'][0]:.0f}, "
                                      f"key {stats['log-average'][0]:.3f}")
    ax.set_xlim(0, 256)
    ax.set_xlabel('luma level', fontsize=8)
    ax.set_ylabel('% of pixels', fontsize=8)
    ax.set_title('luma histograms (clhistogram)', fontsize=9)
    ax.legend(fontsize=8)
    ax.tick_params(labelsize=8)

    frames = [r['frame'] for r in ctl.rows]
    label = 'log-average (key)' if ctl.measure == 'log-average' else 'mean luma'
    ax = fig.add_subplot(grid[1, 0:2])
    ax.plot(frames, [r['before'] for r in ctl.rows], color='0.55', label=f'input {label}')
    ax.plot(frames, [r['after'] for r in ctl.rows], color='tab:orange', marker='.',
            label=f'output {label}')
    ax.axhline(ctl.target, color='k', linestyle='--', linewidth=1, label='target')
    ax.set_xlabel('frame', fontsize=8)
    ax.set_title(f'the loop: output {label} toward the target', fontsize=9)
    ax.legend(fontsize=8)
    ax.tick_params(labelsize=8)
    ax = fig.add_subplot(grid[1, 2])
    ax.plot(frames, [r['contrast'] for r in ctl.rows], color='tab:blue', marker='.',
            label='contrast')
    ax.set_ylim(0, 2.05)
    ax2 = ax.twinx()
    ax2.plot(frames, [r['brightness'] for r in ctl.rows], color='tab:green', marker='.',
             label='brightness')
    ax.set_xlabel('frame', fontsize=8)
    ax.set_title('videobalance "correct"', fontsize=9)
    ax.legend(loc='center right', fontsize=8, bbox_to_anchor=(1, 0.6))
    ax2.legend(loc='center right', fontsize=8, bbox_to_anchor=(1, 0.4))
    ax.tick_params(labelsize=8)
    ax2.tick_params(labelsize=8)
    path = os.path.join(outdir, 'auto-exposure.png')
    fig.savefig(path, dpi=80)
    return [os.path.join(outdir, 'before.png'), os.path.join(outdir, 'after.png'), path]


def main():
    args = parse_args()
    if args.window:
        clfexamples.check_display()
    clfexamples.use_build_tree()
    import gi
    gi.require_version('Gst', '1.0')
    from gi.repository import Gst, GLib
    Gst.init(None)
    clfexamples.check_plugin(Gst)

    clip = None
    if args.input == 'photo':
        source = clfexamples.source_description(clfexamples.photo_path('astronaut.png'),
                                                args.frames)
    elif args.input == 'photos':
        clip = clfexamples.PhotoClip(Gst, 480, 360, per_photo=40, frames=args.frames)
        source = clip.description()
    else:
        source = clfexamples.source_description(args.input, args.frames)
    device = f' device="{args.device}"' if args.device else ''
    sink = ('videoconvert ! autovideosink' if args.window
            else 'appsink name=sink sync=false max-buffers=4')
    pipe = Gst.parse_launch(
        f'{source} ! videoconvert ! video/x-raw,format=RGBx ! '
        f'videobalance name=darken contrast={args.darken} saturation={args.darken} '
        f'brightness={args.haze} ! '
        f'clhistogram name=before{device} ! videobalance name=correct ! '
        f'clhistogram name=after{device} ! {sink}')
    if clip:
        clip.attach(pipe.get_by_name('clip'))

    ctl = Controller(pipe.get_by_name('correct'), args)

    def on_corrected(pad, info):
        ctl.on_corrected(info.get_buffer().pts)
        return Gst.PadProbeReturn.OK
    pipe.get_by_name('correct').get_static_pad('src').add_probe(
        Gst.PadProbeType.BUFFER, on_corrected)
    before, after = pipe.get_by_name('before'), pipe.get_by_name('after')

    def on_sync_message(bus, msg):
        # in the streaming thread: keep it short
        stats = clfexamples.histogram_message(msg)
        if stats is None:
            return
        if msg.src == before:
            ctl.on_before(stats)
        elif msg.src == after:
            ctl.on_after(stats)

    bus = pipe.get_bus()
    bus.enable_sync_message_emission()
    bus.connect('sync-message::element', on_sync_message)

    status = 0
    first = last = None
    pipe.set_state(Gst.State.PLAYING)
    try:
        if args.window:
            loop = GLib.MainLoop()

            def on_message(bus, msg):
                nonlocal status
                if msg.type == Gst.MessageType.ERROR:
                    err, debug = msg.parse_error()
                    print(f'error: {err.message}\n  {debug}', file=sys.stderr)
                    status = 1
                    loop.quit()
                elif msg.type == Gst.MessageType.EOS:
                    loop.quit()
            bus.add_signal_watch()
            bus.connect('message', on_message)
            GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, 2, loop.quit)   # Ctrl-C
            loop.run()
        else:
            appsink = pipe.get_by_name('sink')
            while True:
                sample = appsink.emit('try-pull-sample', 10 * Gst.SECOND)
                if sample is None:
                    break
                frame = frame_of(sample, Gst)
                if first is None:
                    first = frame
                last = frame
            msg = bus.pop_filtered(Gst.MessageType.ERROR)
            if msg:
                err, debug = msg.parse_error()
                print(f'error: {err.message}\n  {debug}', file=sys.stderr)
                status = 1
    finally:
        pipe.set_state(Gst.State.NULL)

    if not ctl.rows:
        print('no clhistogram message', file=sys.stderr)
        return 1
    last_row = ctl.rows[-1]
    if ctl.converged_at is not None:
        print(f'converged (within 3 % and 3 levels) from frame {ctl.converged_at}: '
              f'{ctl.measure} {last_row["after"]:.3f} '
              f'(target {ctl.target}), low {last_row["low"]} (target {ctl.target_low:g}) with '
              f'contrast {last_row["contrast"]:.3f} brightness {last_row["brightness"]:+.3f}; '
              f'the darkening was contrast {args.darken} brightness {args.haze:+.3f}')
    else:
        print(f'not converged after {len(ctl.rows)} frames')
        if args.check:
            status = 1
    if first is not None:
        for path in write_pictures(args.output_dir, first, last, ctl):
            print(f'wrote {path}')
    return status


if __name__ == '__main__':
    sys.exit(main())
