"""One frame through an element, for the OpenCV comparisons
(opencv_compare.py, clahe_opencv_compare.py)."""
import numpy as np
from gi.repository import Gst


def push_frame(element, caps, data):
    """data (bytes of one frame of caps) through appsrc ! element ! appsink;
    returns the output frame as a uint8 array of len(data) bytes (a copy)"""
    pipe = Gst.parse_launch(f'appsrc name=src caps="{caps}" format=time ! '
                            f'{element} ! appsink name=sink sync=false')
    src, sink = pipe.get_by_name('src'), pipe.get_by_name('sink')
    pipe.set_state(Gst.State.PLAYING)
    buf = Gst.Buffer.new_wrapped(data)
    buf.pts = 0
    src.emit('push-buffer', buf)
    src.emit('end-of-stream')
    # a second at a time, so that an element that fails (an error on the
    # bus, no sample ever) fails the check instead of hanging it
    sample, msg = None, None
    for _ in range(120):
        sample = sink.emit('try-pull-sample', Gst.SECOND)
        msg = pipe.get_bus().pop_filtered(Gst.MessageType.ERROR)
        if sample is not None or msg is not None or sink.is_eos():
            break
    pipe.set_state(Gst.State.NULL)
    if sample is None:
        raise RuntimeError(f'no output for {element} on {caps}: '
                           f'{msg.parse_error() if msg else ""}')
    out = sample.get_buffer()
    ok, m = out.map(Gst.MapFlags.READ)
    arr = np.frombuffer(m.data, np.uint8)[:len(data)].copy()
    out.unmap(m)
    return arr
