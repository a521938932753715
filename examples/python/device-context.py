#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING)
"""An application chooses the OpenCL device of every clfilters element, and
two pipelines exchange frames that stay on that device.

    A:  videotestsrc ! clgaussian ! cllaplace
          ! appsink caps=video/x-raw(memory:OpenCLMemory)
    B:  appsrc caps=video/x-raw(memory:OpenCLMemory) ! clhistogram
          ! cldownload ! appsink

Every clfilters element looks for a GstContext of type "gst.cl.device"
when it starts: the program answers their `need-context` messages with one
that names the device (`device-name` or `device-type`, plain strings, so no
clfilters library is needed). All five elements then run on that device,
and the frames cross from A to B as device memory: nothing is copied
between the pipelines.

    examples/python/device-context.py                 # the first GPU
    examples/python/device-context.py --device cpu    # a type, or part of a name
"""
import argparse
import sys

import gi

gi.require_version('Gst', '1.0')
from gi.repository import Gst  # noqa: E402


def answer(bus, msg, context):
    """Sync bus handler: the application's context for every element that
    asks for one."""
    if msg.type == Gst.MessageType.NEED_CONTEXT:
        ok, kind = msg.parse_context_type()
        if ok and kind == 'gst.cl.device':
            msg.src.set_context(context)
    return Gst.BusSyncReply.PASS


def caps_of(pipe, element, pad):
    caps = pipe.get_by_name(element).get_static_pad(pad).get_current_caps()
    return caps.to_string() if caps else '(none)'


def main():
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('--device', default='gpu',
                   help='gpu (default), cpu, accelerator or part of a device '
                        'or platform name')
    p.add_argument('--frames', type=int, default=10)
    p.add_argument('--check', action='store_true',
                   help='exit with an error unless every element used the '
                        'device and frames stayed on it')
    args = p.parse_args()
    Gst.init(None)

    context = Gst.Context.new('gst.cl.device', True)
    s = context.writable_structure()
    if args.device in ('gpu', 'cpu', 'accelerator'):
        s.set_value('device-type', args.device)
    else:
        s.set_value('device-name', args.device)

    caps = 'format=RGBA,width=320,height=240,framerate=30/1'
    a = Gst.parse_launch(
        f'videotestsrc num-buffers={args.frames} ! video/x-raw,{caps} '
        '! clgaussian name=blur ! cllaplace name=sharpen '
        f'! appsink name=out sync=false caps="video/x-raw(memory:OpenCLMemory),{caps}"')
    b = Gst.parse_launch(
        f'appsrc name=in format=time caps="video/x-raw(memory:OpenCLMemory),{caps}" '
        '! clhistogram name=hist ! cldownload name=down '
        '! appsink name=final sync=false')
    for pipe in (a, b):
        pipe.get_bus().set_sync_handler(answer, context)

    a.set_state(Gst.State.PLAYING)
    b.set_state(Gst.State.PLAYING)
    out, src, final = a.get_by_name('out'), b.get_by_name('in'), b.get_by_name('final')

    n = 0
    while True:
        sample = out.emit('try-pull-sample', 10 * Gst.SECOND)
        if sample is None:
            break
        src.emit('push-sample', sample)        # the device frame, as it is
        got = final.emit('try-pull-sample', 10 * Gst.SECOND)
        if got is None:
            break
        n += 1
    src.emit('end-of-stream')
    for pipe in (a, b):
        msg = pipe.get_bus().pop_filtered(Gst.MessageType.ERROR)
        if msg:
            err, debug = msg.parse_error()
            print(f'error: {err.message}', file=sys.stderr)
            return 1

    names = {e: a.get_by_name(e) or b.get_by_name(e)
             for e in ('blur', 'sharpen', 'hist', 'down')}
    devices = {e: el.get_property('device-name') for e, el in names.items()}
    link = caps_of(b, 'hist', 'sink')
    print(f'{n} frames through both pipelines')
    for e, d in devices.items():
        print(f'  {e:8s} on "{d}"')
    print(f'  A -> B: {link}')
    for pipe in (a, b):
        pipe.set_state(Gst.State.NULL)

    if args.check:
        ok = (n == args.frames and len(set(devices.values())) == 1
              and all(devices.values()) and 'memory:OpenCLMemory' in link)
        if not ok:
            print('check failed: every element on one device, frames on it '
                  'from A to B', file=sys.stderr)
            return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
