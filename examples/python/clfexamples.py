# SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING)
"""What the Python examples share: finding the plugin, the video sources
(a clip made from scikit-image's photographs, a file, a camera, videotestsrc)
and reading clhistogram messages into plain Python values.

Not an API of the plugin: a few helpers kept out of the examples so that
each example reads as what it demonstrates.
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PICTURE_EXTENSIONS = ('.png', '.jpg', '.jpeg', '.bmp', '.gif', '.tif', '.tiff')
PHOTOS = ('astronaut.png', 'coffee.png', 'chelsea.png', 'rocket.jpg', 'motorcycle_left.png')


def use_build_tree():
    """Makes GStreamer find the plugin of the build tree, as scripts/env.sh
    does: call before Gst.init(). An installed plugin needs nothing."""
    build = os.path.join(ROOT, 'build', 'gst')
    if os.path.isdir(build) and not os.environ.get('CLF_NO_BUILD_TREE'):
        path = os.environ.get('GST_PLUGIN_PATH', '')
        if build not in path.split(os.pathsep):
            os.environ['GST_PLUGIN_PATH'] = build + (os.pathsep + path if path else '')
    # POCL needs a writable cache directory, or its device disappears
    if 'POCL_CACHE_DIR' not in os.environ:
        cache = os.path.join(os.environ.get('XDG_CACHE_HOME') or
                             os.path.join(os.path.expanduser('~'), '.cache'), 'pocl')
        try:
            os.makedirs(cache, exist_ok=True)
        except OSError:
            os.environ['POCL_CACHE_DIR'] = os.path.join(ROOT, 'build', 'pocl-cache')


def check_plugin(Gst):
    """Exits with a helpful line when the clfilters elements are missing."""
    missing = [e for e in ('clhistogram',) if Gst.ElementFactory.find(e) is None]
    if missing:
        sys.exit(f'no element {missing[0]}: build the plugin (ninja -C build) or '
                 'install it, or set GST_PLUGIN_PATH to the folder of libgstclfilters.so')


def check_display():
    """Exits with a helpful line when a window is asked for without a display
    (autovideosink has nothing to show on; its DirectFB candidate may even
    crash trying)."""
    if not (os.environ.get('DISPLAY') or os.environ.get('WAYLAND_DISPLAY')):
        sys.exit('no display (DISPLAY, WAYLAND_DISPLAY): run without --window '
                 'to write PNG files instead')


def photo_path(name):
    """The file of one of the photographs scikit-image ships (python3-skimage)."""
    import skimage.data
    return os.path.join(os.path.dirname(skimage.data.__file__), name)


def photo(name):
    """One of scikit-image's sample photographs, as an RGB uint8 array."""
    import skimage.io
    img = skimage.io.imread(photo_path(name))
    if img.ndim == 2:
        img = img[:, :, None].repeat(3, axis=2)
    return img[:, :, :3]


class PhotoClip:
    """A clip made from photographs: each photo for `per_photo` frames, a
    window of `width` x `height` panning across it, fed to an appsrc. A
    real picture whose histogram changes while it plays, without a camera
    or a video file."""

    def __init__(self, Gst, width=320, height=240, per_photo=12, fps=25,
                 frames=0, names=PHOTOS, transform=None):
        self.Gst = Gst
        self.width, self.height, self.fps = width, height, fps
        self.per_photo = per_photo
        self.frames = frames            # 0: loop forever
        self.photos = [photo(n) for n in names]
        self.transform = transform      # frame -> frame, e.g. darken
        self.n = 0

    def description(self, name='clip'):
        return (f'appsrc name={name} format=time is-live=false do-timestamp=false '
                f'caps=video/x-raw,format=RGB,width={self.width},height={self.height},'
                f'framerate={self.fps}/1,pixel-aspect-ratio=1/1')

    def frame(self, k):
        img = self.photos[(k // self.per_photo) % len(self.photos)]
        t = (k % self.per_photo) / max(self.per_photo - 1, 1)
        h, w = img.shape[:2]
        # photos over twice the window's size: take every other pixel (or
        # every third...), so that the window shows a good part of them
        step = max(1, min(w // self.width, h // self.height) // 2)
        img = img[::step, ::step]
        h, w = img.shape[:2]
        x = int(round((w - self.width) * t)) if w > self.width else 0
        y = (h - self.height) // 2 if h > self.height else 0
        out = img[y:y + self.height, x:x + self.width]
        if out.shape[0] != self.height or out.shape[1] != self.width:
            import numpy as np
            pad = np.zeros((self.height, self.width, 3), np.uint8)
            pad[:out.shape[0], :out.shape[1]] = out
            out = pad
        return self.transform(out) if self.transform else out

    def attach(self, appsrc):
        appsrc.connect('need-data', self._need_data)

    def _need_data(self, appsrc, _length):
        Gst = self.Gst
        if self.frames and self.n >= self.frames:
            appsrc.emit('end-of-stream')
            return
        data = self.frame(self.n).tobytes()
        buf = Gst.Buffer.new_wrapped(data)
        buf.pts = self.n * Gst.SECOND // self.fps
        buf.duration = Gst.SECOND // self.fps
        self.n += 1
        appsrc.emit('push-buffer', buf)


def source_description(spec, frames=0):
    """A gst-launch description of a source of raw video, from `spec`:
    'camera' (v4l2src), 'test' (videotestsrc), a video or picture file, or
    any other text as a gst-launch source description. (The photo clip is
    an appsrc: see PhotoClip.)"""
    nb = f' num-buffers={frames}' if frames else ''
    if spec == 'camera':
        return f'v4l2src{nb} ! decodebin'
    if spec == 'test':
        return f'videotestsrc{nb}'
    if os.path.isfile(spec):
        loc = spec.replace('\\', '\\\\').replace('"', '\\"')
        if spec.lower().endswith(PICTURE_EXTENSIONS):
            return f'filesrc location="{loc}" ! decodebin ! imagefreeze{nb or " num-buffers=-1"}'
        return f'filesrc location="{loc}" ! decodebin'
    return spec


def histogram_message(msg):
    """The fields of a clhistogram element message as a dict of Python
    values, arrays as lists: {'channels': ['luma', ...], 'mean': [..], ...,
    'histogram': [[counts of channel 0], ...]}; None for other messages."""
    s = msg.get_structure()
    if s is None or s.get_name() != 'clhistogram':
        return None
    return {s.nth_field_name(i): _python(s.get_value(s.nth_field_name(i)))
            for i in range(s.n_fields())}


def _python(value):
    # GST_TYPE_ARRAY fields come as Gst.ValueArray, a sequence (len and
    # indexing; the histogram is a ValueArray of ValueArrays)
    if hasattr(value, '__getitem__') and hasattr(value, '__len__') and not isinstance(value, str):
        return [_python(value[i]) for i in range(len(value))]
    return value
