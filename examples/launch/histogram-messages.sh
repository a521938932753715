#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING)
CLF_USAGE="histogram-messages.sh [options] [PROP=VALUE...]: clhistogram's bus messages, as gst-launch-1.0 -m prints them

  clhistogram channels=all bins=8 on RGBx video: luma, red, green and blue.
  PROP=VALUE go to clhistogram, e.g. interval=1000000000 (one message a
  second, accumulating the frames) or bins=256 or low-percentile=5.

  examples/launch/histogram-messages.sh                  # webcam, window
  examples/launch/histogram-messages.sh --headless -n 3  # photograph, 3 frames
  examples/launch/histogram-messages.sh -H interval=500000000 -n 30
"
source "$(dirname "$0")/common.sh" "$@"

# gst-launch-1.0 -m prints every message; the clhistogram ones are the
# element messages whose structure is named clhistogram. The fields are
# described in docs/elements/clhistogram.md.
clf_launch -m -- "video/x-raw,format=RGBx ! clhistogram channels=all bins=8$(clf_cl_props) ${CLF_PROPS[*]}" |
  awk '
    /\(element\): clhistogram,/ { n++; print; fflush(); next }
    /^ERROR|^WARNING|^Additional|^\.\.\/|^gst-launch-1.0 / { print; fflush() }
    END { if (n == 0 && ENVIRON["CLF_DRY_RUN"] != 1) { print "histogram-messages.sh: no clhistogram message"; exit 1 } }
  '
