#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING)
"""clfilters benchmark: our elements against their peers on the same frames.

Run it through bench/run.sh (which builds the plugin, installs the peers and
sets GST_PLUGIN_PATH); docs/performance.md describes the method.

What one measurement is: a pipeline

    appsrc ! X ! fakesink sync=false

fed from appsrc's need-data signal with prepared frames (8 of them, rotating;
each push wraps an already-filled GstMemory in a new GstBuffer: no copy). The
need-data signal comes from appsrc's streaming thread once the previous frame
has gone all the way through X into fakesink, so the clock taken at the
(W+1)-th and the (W+N+1)-th need-data spans exactly N frames after W warm-up
frames. The same with X = identity is the harness cost, which is subtracted:
element-only time = median(X) - median(identity), same format and size.

Every configuration runs --repeat times, round-robin over all of them in a
shuffled order each round (so that a load that comes and goes hits all
alike); the tables give medians.
"""
import argparse
import os
import platform
import random
import re
import statistics
import sys
import threading
import time
import zlib

import numpy as np

import gi
gi.require_version('Gst', '1.0')
gi.require_version('GstVideo', '1.0')
gi.require_version('GstApp', '1.0')
from gi.repository import GLib, Gst, GstVideo, GstApp  # noqa: E402,F401 (GstApp: appsrc methods)

SIZES = {'1080p': (1920, 1080), '4k': (3840, 2160), '8k': (7680, 4320)}
NFRAMES = 8                       # distinct frames, rotating
FPS = 30                          # timestamps of the pushed frames
ALIGN = 127                       # frames are 128-byte aligned
PHOTOS = ['astronaut', 'coffee', 'chelsea', 'rocket', 'hubble_deep_field',
          'retina', 'immunohistochemistry', 'stereo_motorcycle']


def log(*a):
    print(*a, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------
# frames

def photos_rgb(w, h):
    """8 distinct photographs, scaled to cover w x h and centre-cropped."""
    import cv2
    import skimage.data
    out = []
    for name in PHOTOS:
        img = getattr(skimage.data, name)()
        if isinstance(img, tuple):                 # stereo_motorcycle
            img = img[0]
        img = np.ascontiguousarray(img[:, :, :3])
        ph, pw = img.shape[:2]
        s = max(w / pw, h / ph)
        sw, sh = max(w, round(pw * s)), max(h, round(ph * s))
        img = cv2.resize(img, (sw, sh), interpolation=cv2.INTER_AREA if s < 1
                         else cv2.INTER_CUBIC)
        x0, y0 = (sw - w) // 2, (sh - h) // 2
        out.append(np.ascontiguousarray(img[y0:y0 + h, x0:x0 + w]))
    return out


def video_info(fmt, w, h):
    vi = GstVideo.VideoInfo.new()
    vi.set_format(GstVideo.VideoFormat.from_string(fmt), w, h)
    vi.fps_n, vi.fps_d = FPS, 1
    return vi


def alloc_memory(data):
    """A GstMemory of the default allocator, ALIGN-aligned, holding data."""
    params = Gst.AllocationParams()
    params.align = ALIGN
    mem = Gst.Allocator.find(None).alloc(len(data), params)
    with mem.map(Gst.MapFlags.WRITE) as info:
        info.data[:] = data
    return mem


def memory_crc(mem):
    with mem.map(Gst.MapFlags.READ) as info:
        return zlib.crc32(info.data)


def pack_rgb(rgb, vi):
    """numpy HxWx3 -> bytes laid out as GStreamer's RGB (default stride)."""
    h, w = rgb.shape[:2]
    stride = vi.stride[0]
    buf = np.zeros((h, stride), np.uint8)
    buf[:, :w * 3] = rgb.reshape(h, w * 3)
    return buf.tobytes()


def convert_frames(rgbs, fmt, w, h):
    """RGB frames -> fmt through videoconvert, in GStreamer's default layout."""
    vi_in = video_info('RGB', w, h)
    packed = [pack_rgb(f, vi_in) for f in rgbs]
    if fmt == 'RGB':
        return packed
    pipe = Gst.parse_launch(
        'appsrc name=src format=time ! videoconvert n-threads=2 ! '
        f'video/x-raw,format={fmt} ! appsink name=sink sync=false')
    src, sink = pipe.get_by_name('src'), pipe.get_by_name('sink')
    src.set_property('caps', vi_in.to_caps())
    pipe.set_state(Gst.State.PLAYING)
    for i, data in enumerate(packed):
        b = Gst.Buffer.new_wrapped(data)
        b.pts, b.duration = i * Gst.SECOND // FPS, Gst.SECOND // FPS
        src.emit('push-buffer', b)
    src.emit('end-of-stream')
    out = []
    for _ in packed:
        s = sink.emit('pull-sample')
        if s is None:
            raise RuntimeError(f'videoconvert to {fmt} failed')
        b = s.get_buffer()
        out.append(b.extract_dup(0, b.get_size()))
    pipe.set_state(Gst.State.NULL)
    return out


class FrameSet:
    """8 frames of one format and size, as GstMemory (for appsrc) and numpy
    arrays (for the memcpy floor)."""

    def __init__(self, fmt, w, h, datas):
        self.fmt, self.w, self.h = fmt, w, h
        self.vi = video_info(fmt, w, h)
        self.caps = self.vi.to_caps()
        self.size = self.vi.size
        for d in datas:
            if len(d) != self.size:
                raise RuntimeError(f'{fmt} {w}x{h}: frame of {len(d)} bytes, '
                                   f'expected {self.size}')
        self.datas = datas
        self.mems = [alloc_memory(d) for d in datas]
        self.crcs = [zlib.crc32(d) for d in datas]
        self._arrays = None

    def arrays(self):
        """Sources and (already written once, so mapped) destinations."""
        if self._arrays is None:
            src = [np.frombuffer(d, np.uint8) for d in self.datas]
            dst = [a.copy() for a in src]
            self._arrays = src, dst
        return self._arrays

    def scratch(self):
        """A private copy, for elements that write into their input."""
        return FrameSet(self.fmt, self.w, self.h, self.datas)

    def modified(self):
        return [i for i, m in enumerate(self.mems)
                if memory_crc(m) != self.crcs[i]]


class Frames:
    """Lazily prepared frame sets, keyed by (content, format, size)."""

    def __init__(self):
        self.rgb = {}
        self.sets = {}

    def get(self, content, fmt, size):
        key = (content, fmt, size)
        if key not in self.sets:
            w, h = SIZES[size]
            t = time.time()
            if content == 'black':
                if fmt != 'GRAY8':
                    raise ValueError('black frames are GRAY8')
                datas = [bytes(video_info(fmt, w, h).size)
                         for _ in range(NFRAMES)]
            else:
                if size not in self.rgb:
                    self.rgb[size] = photos_rgb(w, h)
                datas = convert_frames(self.rgb[size], fmt, w, h)
            self.sets[key] = FrameSet(fmt, w, h, datas)
            log(f'  frames: {content} {fmt} {w}x{h} '
                f'({self.sets[key].size / 1e6:.1f} MB each, {time.time() - t:.1f} s)')
        return self.sets[key]


# --------------------------------------------------------------------------
# configurations

class Config:
    """One thing to time. kind: memcpy, identity, filter or analyzer."""

    def __init__(self, cid, size, fmt, kind, desc=None, label=None,
                 ours=False, peers=(), content='photo', writes_input=False,
                 note='', frames_scale=1.0):
        self.id, self.size, self.fmt, self.kind = cid, size, fmt, kind
        self.frames_scale = frames_scale   # for very slow peers
        self.desc, self.label = desc, label or desc
        self.ours, self.peers = ours, list(peers)
        self.content, self.writes_input, self.note = content, writes_input, note
        self.times = []          # seconds per frame, one per round
        self.prof_runs = []      # (seconds per frame, cl-profile summary)
        self.error = None
        self.scratch = None

    @property
    def element(self):
        return self.desc.split()[0] if self.desc else self.kind


def build_configs(sizes):
    cfgs = []

    def add(*a, **k):
        c = Config(*a, **k)
        cfgs.append(c)
        return c

    for size in sizes:
        s = size
        if size == '1080p':
            fmts = ['GRAY8', 'RGB', 'RGBA', 'I420', 'AYUV', 'NV12', 'P010_10LE']
        elif size == '4k':
            fmts = ['GRAY8', 'RGB', 'I420', 'NV12', 'P010_10LE']
        else:
            fmts = ['RGB']
        for f in fmts:
            add(f'memcpy/{f}/{s}', s, f, 'memcpy', label='memcpy (floor)')
            add(f'identity/{f}/{s}', s, f, 'identity', 'identity',
                label='identity (harness)')

        if size == '8k':
            add(f'clgaussian/RGB/{s}', s, 'RGB', 'filter', 'clgaussian',
                label='clgaussian (3x3)', ours=True)
            continue

        # clgaussian
        add(f'cvsmooth3/GRAY8/{s}', s, 'GRAY8', 'filter',
            'cvsmooth type=gaussian kernel-width=3 kernel-height=3',
            label='cvsmooth 3x3', writes_input=True)
        add(f'clgaussian/GRAY8/{s}', s, 'GRAY8', 'filter', 'clgaussian',
            label='clgaussian (3x3)', ours=True,
            peers=[f'cvsmooth3/GRAY8/{s}'])
        add(f'cvsmooth3/RGB/{s}', s, 'RGB', 'filter',
            'cvsmooth type=gaussian kernel-width=3 kernel-height=3',
            label='cvsmooth 3x3', writes_input=True)
        add(f'clgaussian/RGB/{s}', s, 'RGB', 'filter', 'clgaussian',
            label='clgaussian (3x3)', ours=True,
            peers=[f'cvsmooth3/RGB/{s}'])
        add(f'cvsmooth15/GRAY8/{s}', s, 'GRAY8', 'filter',
            'cvsmooth type=gaussian kernel-width=15 kernel-height=15',
            label='cvsmooth 15x15', writes_input=True)
        add(f'clgaussian-r7/GRAY8/{s}', s, 'GRAY8', 'filter',
            'clgaussian radius=7', label='clgaussian radius=7 (15x15)',
            ours=True, peers=[f'cvsmooth15/GRAY8/{s}'])
        add(f'cvsmooth15/RGB/{s}', s, 'RGB', 'filter',
            'cvsmooth type=gaussian kernel-width=15 kernel-height=15',
            label='cvsmooth 15x15', writes_input=True)
        add(f'clgaussian-r7/RGB/{s}', s, 'RGB', 'filter',
            'clgaussian radius=7', label='clgaussian radius=7 (15x15)',
            ours=True, peers=[f'cvsmooth15/RGB/{s}'])
        if size == '1080p':
            add(f'gaussianblur/AYUV/{s}', s, 'AYUV', 'filter',
                'gaussianblur sigma=1.2', label='gaussianblur sigma=1.2',
                frames_scale=0.2)
            add(f'clgaussian-s1.2/RGBA/{s}', s, 'RGBA', 'filter',
                'clgaussian radius=3 sigma=1.2',
                label='clgaussian radius=3 sigma=1.2', ours=True,
                peers=[f'gaussianblur/AYUV/{s}'],
                note='gaussianblur takes only AYUV (4 bytes per pixel too): '
                'compared on AYUV frames of the same photos')
            add(f'clgaussian/RGBA/{s}', s, 'RGBA', 'filter', 'clgaussian',
                label='clgaussian (3x3)', ours=True)
            add(f'clgaussian/I420/{s}', s, 'I420', 'filter', 'clgaussian',
                label='clgaussian (3x3, luma)', ours=True)

            # cllaplace
            add(f'cvlaplace/RGB/{s}', s, 'RGB', 'filter', 'cvlaplace',
                label='cvlaplace (mask=true)')
            add(f'cllaplace/RGB/{s}', s, 'RGB', 'filter', 'cllaplace',
                label='cllaplace (sharpen)', ours=True,
                peers=[f'cvlaplace/RGB/{s}'])
            add(f'cvlaplace-edges/RGB/{s}', s, 'RGB', 'filter',
                'cvlaplace mask=false', label='cvlaplace mask=false')
            add(f'cllaplace-edges/RGB/{s}', s, 'RGB', 'filter',
                'cllaplace mode=edges', label='cllaplace mode=edges',
                ours=True, peers=[f'cvlaplace-edges/RGB/{s}'])
            add(f'cllaplace/GRAY8/{s}', s, 'GRAY8', 'filter', 'cllaplace',
                label='cllaplace (sharpen)', ours=True,
                note='no peer: cvlaplace takes only RGB')

        # clhistogram
        if size == '1080p':
            add(f'cvequalizehist/GRAY8/{s}', s, 'GRAY8', 'filter',
                'cvequalizehist', label='cvequalizehist')
            add(f'videoanalyse/I420/{s}', s, 'I420', 'analyzer',
                'videoanalyse', label='videoanalyse')
        add(f'clhistogram/GRAY8/{s}', s, 'GRAY8', 'analyzer', 'clhistogram',
            label='clhistogram (luma)', ours=True,
            peers=[f'cvequalizehist/GRAY8/{s}'] if size == '1080p' else [])
        if size == '1080p':
            add(f'clhistogram-black/GRAY8/{s}', s, 'GRAY8', 'analyzer',
                'clhistogram', label='clhistogram (luma), black frames',
                ours=True, content='black')
        add(f'clhistogram/I420/{s}', s, 'I420', 'analyzer', 'clhistogram',
            label='clhistogram (luma)', ours=True,
            peers=[f'videoanalyse/I420/{s}'] if size == '1080p' else [])
        add(f'clhistogram-all/RGB/{s}', s, 'RGB', 'analyzer',
            'clhistogram channels=all', label='clhistogram channels=all',
            ours=True)

        # 10 bits: P010_10LE (what hardware decoders give) against NV12,
        # the same layout with one byte per sample; videoanalyse, the only
        # peer analyzer, takes 8-bit planar YUV only
        for f in ('NV12', 'P010_10LE'):
            add(f'clgaussian/{f}/{s}', s, f, 'filter', 'clgaussian',
                label='clgaussian (3x3, luma)', ours=True)
            add(f'clgaussian-r7/{f}/{s}', s, f, 'filter',
                'clgaussian radius=7', label='clgaussian radius=7 (luma)',
                ours=True)
            add(f'cllaplace/{f}/{s}', s, f, 'filter', 'cllaplace',
                label='cllaplace (sharpen, luma)', ours=True)
            add(f'clhistogram/{f}/{s}', s, f, 'analyzer', 'clhistogram',
                label='clhistogram (luma)', ours=True)
    return cfgs


# --------------------------------------------------------------------------
# measurements

class RunError(Exception):
    pass


def time_memcpy(fs, n, warm):
    src, dst = fs.arrays()
    for i in range(warm):
        np.copyto(dst[i % NFRAMES], src[i % NFRAMES])
    t0 = time.perf_counter()
    for i in range(n):
        np.copyto(dst[i % NFRAMES], src[i % NFRAMES])
    return (time.perf_counter() - t0) / n


def with_name(desc):
    parts = desc.split(None, 1)
    return ' '.join([parts[0], 'name=x'] + parts[1:])


def time_pipeline(cfg, fs, n, warm, profiling=False, timeout=120):
    """Seconds per frame of appsrc ! X ! fakesink over n frames after warm
    warm-up frames; with profiling, the element's cl-profile averages too."""
    try:
        pipe = Gst.parse_launch(
            f'appsrc name=src format=time is-live=false ! {with_name(cfg.desc)} ! '
            'fakesink sync=false async=false enable-last-sample=false')
    except GLib.Error as e:
        raise RunError(f'pipeline: {e.message}')
    src, el = pipe.get_by_name('src'), pipe.get_by_name('x')
    src.set_property('caps', fs.caps)
    mems = fs.mems
    dur = Gst.SECOND // FPS
    st = {'i': 0, 't0': None, 't1': None}
    done = threading.Event()

    def need_data(appsrc, length):
        i = st['i']
        if i == warm:
            if profiling:
                el.set_property('profiling', True)
            st['t0'] = time.perf_counter()
        elif i == warm + n:
            st['t1'] = time.perf_counter()
            st['i'] = i + 1
            appsrc.end_of_stream()
            done.set()
            return
        elif i > warm + n:
            return
        buf = Gst.Buffer.new()
        buf.append_memory(mems[i % NFRAMES])
        buf.pts = i * dur
        buf.duration = dur
        st['i'] = i + 1
        appsrc.push_buffer(buf)

    src.connect('need-data', need_data)
    bus = pipe.get_bus()
    warnings, profiles, device = [], [], None
    mask = Gst.MessageType.ERROR | Gst.MessageType.WARNING

    def check(msg):
        if msg is None:
            return
        if msg.type == Gst.MessageType.ERROR:
            err, dbg = msg.parse_error()
            raise RunError(f'{msg.src.get_name()}: {err.message}')
        if msg.type == Gst.MessageType.WARNING:
            w, dbg = msg.parse_warning()
            warnings.append(f'{msg.src.get_name()}: {w.message}')

    try:
        if pipe.set_state(Gst.State.PLAYING) == Gst.StateChangeReturn.FAILURE:
            check(bus.pop_filtered(Gst.MessageType.ERROR))
            raise RunError('could not start the pipeline')
        deadline = time.time() + timeout
        last_i, last_t = -1, time.time()
        while not done.wait(0.25):
            # messages of analyzers pile up on the bus during the timed part
            # (popping them would compete with the streaming thread for the
            # GIL); only errors and warnings are looked at here
            if not profiling:
                check(bus.pop_filtered(mask))
            else:
                m = bus.pop()
                while m is not None:
                    if m.type == Gst.MessageType.ELEMENT and \
                            m.get_structure().get_name() == 'cl-profile':
                        profiles.append(m.get_structure())
                    check(m) if m.type & mask else None
                    m = bus.pop()
            if st['i'] != last_i:
                last_i, last_t = st['i'], time.time()
            if time.time() > deadline or time.time() - last_t > 30:
                raise RunError(f'stalled after {st["i"]} frames')
        # flush: wait for EOS, collecting what is left
        end = time.time() + 30
        while True:
            m = bus.timed_pop(100 * Gst.MSECOND)
            if m is None:
                if time.time() > end:
                    raise RunError('no EOS')
                continue
            if m.type == Gst.MessageType.EOS:
                break
            if m.type == Gst.MessageType.ELEMENT and profiling and \
                    m.get_structure().get_name() == 'cl-profile':
                profiles.append(m.get_structure())
            if m.type & mask:
                check(m)
        if el.find_property('device-name') is not None:
            device = el.get_property('device-name')
    finally:
        pipe.set_state(Gst.State.NULL)
    per_frame = (st['t1'] - st['t0']) / n
    prof = None
    if profiling:
        prof = summarize_profile(profiles)
    return per_frame, device, warnings, prof


def summarize_profile(structs):
    frames = 0
    sums = {'upload-ns': 0, 'kernel-ns': 0, 'download-ns': 0}
    for s in structs:
        f = s.get_value('frames')
        frames += f
        for k in sums:
            sums[k] += s.get_value(k) * f
    if frames == 0:
        return None
    return {'frames': frames, 'messages': len(structs),
            **{k: v / frames for k, v in sums.items()}}


# --------------------------------------------------------------------------
# report

def machine_info():
    cpu = platform.processor() or '?'
    try:
        with open('/proc/cpuinfo') as f:
            m = re.search(r'^model name\s*:\s*(.*)$', f.read(), re.M)
            if m:
                cpu = m.group(1)
    except OSError:
        pass
    load = ' '.join(f'{x:.2f}' for x in os.getloadavg())
    pocl = os.environ.get('POCL_MAX_PTHREAD_COUNT')
    return {
        'cpu': cpu, 'nproc': os.cpu_count(), 'load': load,
        'pocl_threads': pocl if pocl else 'unset (POCL default: one per core)',
        'gst': Gst.version_string(),
        'kernel': platform.release(),
    }


def fmt_ms(s):
    return f'{s * 1e3:.3f}' if s < 0.01 else f'{s * 1e3:.2f}'


def pct_spread(xs):
    if len(xs) < 3:
        return ''
    q = statistics.quantiles(xs, n=4)
    med = statistics.median(xs)
    return f'±{(q[2] - q[0]) / 2 / med * 100:.0f}%' if med > 0 else ''


def results(cfgs):
    by_id = {c.id: c for c in cfgs}
    res = {}
    for c in cfgs:
        if c.error or not c.times:
            continue
        med = statistics.median(c.times)
        if c.kind in ('memcpy', 'identity'):
            el = med
            spread = pct_spread(c.times)
        else:
            ident = by_id.get(f'identity/{c.fmt}/{c.size}')
            if ident is None or not ident.times:
                continue
            el = med - statistics.median(ident.times)
            # spread of the element-only time: of the raw runs, relative to it
            spread = pct_spread([t - statistics.median(ident.times)
                                 for t in c.times])
        res[c.id] = {'s': el, 'spread': spread, 'raw': med}
    return res


def table(cfgs, size, res, frames):
    by_id = {c.id: c for c in cfgs}
    w, h = SIZES[size]
    mpix = w * h / 1e6
    lines = [
        '| element | format | ms/frame | spread | Mpixel/s | GB/s | x floor | peer time / ours |',
        '|---|---|---:|---:|---:|---:|---:|---|',
    ]
    notes = []
    for c in cfgs:
        if c.size != size:
            continue
        label = f'**{c.label}**' if c.ours else c.label
        if c.note:
            notes.append(c.note)
            label += f' [{len(notes)}]'
        if c.error:
            lines.append(f'| {label} | {c.fmt} | error: {c.error} | | | | | |')
            continue
        r = res.get(c.id)
        if r is None:
            continue
        s = r['s']
        fs = frames.get(('photo', c.fmt, size))
        nbytes = fs.size if fs else 0
        moved = nbytes * (1 if c.kind == 'analyzer' else 2)
        floor = res.get(f'memcpy/{c.fmt}/{size}')
        mp = gb = xf = '-'
        if s > 0 and c.kind != 'identity':
            mp = f'{mpix / s:.0f}'
            gb = f'{moved / s / 1e9:.2f}'
            if floor and c.kind != 'memcpy':
                xf = f'{s / floor["s"]:.2f}'
        peers = []
        for p in c.peers:
            pr = res.get(p)
            if pr and s > 0:
                peers.append(f'{by_id[p].label}: **{pr["s"] / s:.2f}x**')
        lines.append(f'| {label} | {c.fmt} | {fmt_ms(s)} | {r["spread"]} | {mp} | '
                     f'{gb} | {xf} | {"; ".join(peers)} |')
    if notes:
        lines.append('')
        lines.extend(f'[{i + 1}] {n}  ' for i, n in enumerate(notes))
    return '\n'.join(lines)


def profile_table(cfgs, res):
    by_id = {c.id: c for c in cfgs}
    lines = [
        '| element | format | size | runs | upload ms | kernel ms | download ms | '
        'sum ms | element-only ms, profiling=true | element-only ms, profiling=false |',
        '|---|---|---|---:|---:|---:|---:|---:|---:|---:|',
    ]
    for c in cfgs:
        if not c.ours or not c.prof_runs:
            continue
        profs = [p for _, p in c.prof_runs if p]
        if not profs:
            lines.append(f'| {c.label} | {c.fmt} | {c.size} | {len(c.prof_runs)} | '
                         'no cl-profile message | | | | | |')
            continue
        u, k, d = (statistics.median(p[x] for p in profs) / 1e6
                   for x in ('upload-ns', 'kernel-ns', 'download-ns'))
        ident = by_id.get(f'identity/{c.fmt}/{c.size}')
        el = ''
        if ident and ident.times:
            el = fmt_ms(statistics.median(t for t, _ in c.prof_runs)
                        - statistics.median(ident.times))
        r = res.get(c.id)
        lines.append(f'| {c.label} | {c.fmt} | {c.size} | {len(profs)} | {u:.3f} | '
                     f'{k:.3f} | {d:.3f} | {u + k + d:.3f} | {el} | '
                     f'{fmt_ms(r["s"]) if r else ""} |')
    return '\n'.join(lines)


def checks(cfgs, res):
    out = []
    b = res.get('clhistogram-black/GRAY8/1080p')
    p = res.get('clhistogram/GRAY8/1080p')
    if b and p and p['s'] > 0:
        r = b['s'] / p['s']
        out.append(f'| clhistogram GRAY8 1080p: black / photo | {r:.2f} | <= 1.3 | '
                   f'{"ok" if r <= 1.3 else "**FAIL**"} |')
    for c in cfgs:
        if c.size != '4k' or not c.ours:
            continue
        a, hd = res.get(c.id), res.get(c.id.replace('/4k', '/1080p'))
        if a and hd and hd['s'] > 0:
            r = a['s'] / hd['s']
            m4, m1 = res.get(f'memcpy/{c.fmt}/4k'), res.get(f'memcpy/{c.fmt}/1080p')
            ref = f' (memcpy: {m4["s"] / m1["s"]:.2f})' if m4 and m1 else ''
            out.append(f'| {c.label} {c.fmt}: 4K / 1080p '
                       f'| {r:.2f}{ref} | <= 4.4 | {"ok" if r <= 4.4 else "**FAIL**"} |')
    # formats of more than 8 bits: P010_10LE 4K at most 2.2x NV12 4K (twice
    # the bytes; docs/performance.md, "Formats of more than 8 bits")
    for c in cfgs:
        if c.size != '4k' or c.fmt != 'P010_10LE' or not c.ours:
            continue
        a, n = res.get(c.id), res.get(c.id.replace('P010_10LE', 'NV12'))
        if a and n and n['s'] > 0:
            r = a['s'] / n['s']
            m10, m8 = res.get('memcpy/P010_10LE/4k'), res.get('memcpy/NV12/4k')
            ref = f' (memcpy: {m10["s"] / m8["s"]:.2f})' if m10 and m8 else ''
            out.append(f'| {c.label}: P010_10LE / NV12, 4K | {r:.2f}{ref} | <= 2.2 | '
                       f'{"ok" if r <= 2.2 else "**FAIL**"} |')
    e = res.get('clgaussian/RGB/8k')
    if e or any(c.id == 'clgaussian/RGB/8k' for c in cfgs):
        c8 = next(c for c in cfgs if c.id == 'clgaussian/RGB/8k')
        if c8.error:
            out.append(f'| clgaussian RGB 7680x4320 | error: {c8.error} | runs | **FAIL** |')
        elif e:
            out.append(f'| clgaussian RGB 7680x4320 | {fmt_ms(e["s"])} ms/frame | runs | ok |')
    if not out:
        return ''
    return '| criterion | measured | limit | |\n|---|---:|---|---|\n' + '\n'.join(out)


# --------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--sizes', default='1080p,4k,8k',
                    help='comma-separated from 1080p, 4k, 8k (default: all)')
    ap.add_argument('--repeat', type=int, default=7,
                    help='rounds over all configurations (default 7)')
    ap.add_argument('--frames', type=int, default=150,
                    help='timed frames per run at 1080p; 4K runs a quarter '
                         'of them, 8K a sixteenth (default 150)')
    ap.add_argument('--warmup', type=int, default=8,
                    help='untimed frames before each timed run at 1080p '
                         '(default 8; fewer at larger sizes)')
    ap.add_argument('--quick', action='store_true',
                    help='1080p only, 2 rounds of 40 frames, no profiling')
    ap.add_argument('--only', metavar='REGEX',
                    help='only configurations whose id matches (memcpy and '
                         'identity of the same format are kept); --list shows ids')
    ap.add_argument('--no-profile', action='store_true',
                    help='skip the profiling=true runs')
    ap.add_argument('--profile-rounds', type=int, default=3,
                    help='rounds that also run each of our configurations '
                         'with profiling=true (default 3)')
    ap.add_argument('--list', action='store_true', help='list the configuration ids')
    ap.add_argument('--output', metavar='FILE', help='also write the report to FILE')
    ap.add_argument('--seed', type=int, default=1, help='shuffle seed')
    args = ap.parse_args()

    if args.quick:
        args.sizes, args.repeat, args.frames = '1080p', 2, 40
        args.no_profile = True
    sizes = [s.strip().lower() for s in args.sizes.split(',') if s.strip()]
    for s in sizes:
        if s not in SIZES:
            ap.error(f'unknown size {s}')
    Gst.init(None)
    cfgs = build_configs(sizes)
    if args.only:
        rx = re.compile(args.only)
        keep = [c for c in cfgs if c.kind not in ('memcpy', 'identity') and rx.search(c.id)]
        need = {(c.fmt, c.size) for c in keep}
        cfgs = [c for c in cfgs if c in keep or
                (c.kind in ('memcpy', 'identity') and (c.fmt, c.size) in need)]
    if args.list:
        for c in cfgs:
            print(f'{c.id:34} {c.desc or c.kind}')
        return 0

    missing = sorted({c.element for c in cfgs if c.desc and
                      Gst.ElementFactory.find(c.element) is None})
    if missing:
        log(f'bench: elements missing: {", ".join(missing)} '
            '(bench/run.sh installs gstreamer1.0-opencv and gstreamer1.0-plugins-bad)')
        for c in cfgs:
            if c.element in missing:
                c.error = 'element not installed'

    info = machine_info()
    t_start = time.time()
    log(f'bench: {len(cfgs)} configurations, sizes {",".join(sizes)}, '
        f'{args.repeat} rounds, {args.frames} frames at 1080p')
    log('bench: preparing frames')
    frames = Frames()
    for c in cfgs:
        if c.error:
            continue
        fs = frames.get(c.content, c.fmt, c.size)
        if c.writes_input:
            # in-place elements get a private copy, so the frames the others
            # see stay the photographs
            c.scratch = fs.scratch()

    def nframes(size):
        return max(3, args.frames * 1920 * 1080 // (SIZES[size][0] * SIZES[size][1]))

    def nwarm(size):
        return max(2, args.warmup * 1920 * 1080 // (SIZES[size][0] * SIZES[size][1]))

    device = None
    all_warnings = {}
    rng = random.Random(args.seed)
    loads = []
    prof_rounds = 0 if args.no_profile else min(args.profile_rounds, args.repeat)
    for r in range(args.repeat):
        # one timed run of every configuration, and in the first prof_rounds
        # rounds one profiling=true run of each of ours, in a shuffled order
        order = [(c, False) for c in cfgs if not c.error]
        if r < prof_rounds:
            order += [(c, True) for c in cfgs if c.ours and not c.error]
        rng.shuffle(order)
        tr = time.time()
        for c, profiling in order:
            if c.error:
                continue
            fs = c.scratch or frames.get(c.content, c.fmt, c.size)
            n, w = max(3, int(nframes(c.size) * c.frames_scale)), nwarm(c.size)
            try:
                if c.kind == 'memcpy':
                    c.times.append(time_memcpy(fs, n, w))
                    continue
                if profiling:
                    n = max(n, 2 * FPS)     # >= 2 s of stream: >= 2 posts
                t, dev, warns, prof = time_pipeline(c, fs, n, w, profiling)
                if c.ours and dev:
                    device = device or dev
                for x in warns:
                    all_warnings.setdefault(x, set()).add(
                        c.id + (' (profiling)' if profiling else ''))
                if profiling:
                    c.prof_runs.append((t, prof))
                else:
                    c.times.append(t)
            except RunError as e:
                c.error = str(e) + (' (profiling=true)' if profiling else '')
                log(f'  {c.id}: ERROR {c.error}')
        loads.append(os.getloadavg()[0])
        log(f'bench: round {r + 1}/{args.repeat} done in {time.time() - tr:.0f} s '
            f'(load average {loads[-1]:.2f})')

    # did anything write into frames it should only read?
    modified = []
    for key, fs in frames.sets.items():
        idx = fs.modified()
        if idx:
            users = [c.id for c in cfgs if (c.content, c.fmt, c.size) == key
                     and not c.writes_input]
            modified.append(f'{key}: frames {idx} changed; read by {", ".join(users)}')

    res = results(cfgs)
    info['load_end'] = ' '.join(f'{x:.2f}' for x in os.getloadavg())
    rep = []
    rep.append(f'Measured {time.strftime("%Y-%m-%d %H:%M")} on: {info["cpu"]}, '
               f'{info["nproc"]} CPUs (nproc), Linux {info["kernel"]}; {info["gst"]}; '
               f'OpenCL device: {device or "?"}; POCL_MAX_PTHREAD_COUNT: '
               f'{info["pocl_threads"]}; load average (1, 5, 15 min) {info["load"]} at the '
               f'start, {info["load_end"]} at the end, 1-min load after each round '
               f'{" ".join(f"{x:.1f}" for x in loads)}.')
    rep.append('')
    rep.append(f'Median of {args.repeat} interleaved rounds; {args.frames} timed frames '
               'per run at 1080p (4K: a quarter, 8K: a sixteenth), 8 rotating frames; '
               'element-only time = run - identity run of the same format and size. '
               '"spread": half the interquartile range of the rounds, relative. '
               'GB/s: frame bytes read + written (filters, memcpy) or read (analyzers). '
               '"x floor": time / memcpy time of the same frame. "peer time / ours": '
               'above 1 means ours is faster.')
    for size in sizes:
        if not any(c.size == size for c in cfgs):
            continue
        w, h = SIZES[size]
        rep.append('')
        rep.append(f'### {size} ({w}x{h})')
        rep.append('')
        rep.append(table(cfgs, size, res, frames.sets))
    pt = profile_table(cfgs, res) if not args.no_profile else ''
    if pt.count('\n') > 1:
        rep.append('')
        rep.append('### profiling=true: per-frame averages from cl-profile messages '
                   f'(medians of {prof_rounds} interleaved runs)')
        rep.append('')
        rep.append(pt)
    ck = checks(cfgs, res)
    if ck:
        rep.append('')
        rep.append('### Criteria')
        rep.append('')
        rep.append(ck)
    notes = []
    for wtext, ids in sorted(all_warnings.items()):
        notes.append(f'- warning "{wtext}" in {", ".join(sorted(ids))}')
    for m in modified:
        notes.append(f'- input modified: {m}')
    for c in cfgs:
        if c.error:
            notes.append(f'- {c.id}: {c.error}')
    if notes:
        rep.append('')
        rep.append('### Notes')
        rep.append('')
        rep.extend(notes)
    rep.append('')
    rep.append(f'Total run time {time.time() - t_start:.0f} s.')
    text = '\n'.join(rep)
    print(text)
    if args.output:
        with open(args.output, 'w') as f:
            f.write(text + '\n')
    return 0


if __name__ == '__main__':
    sys.exit(main())
