#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING)
CLF_USAGE="chain.sh [options] [PROP=VALUE...]: the three elements in a row, as a focus meter

  clgaussian sigma=1 ! cllaplace mode=edges strength=4 ! clhistogram bins=16

shows the edges and prints, per frame, the mean edge level that clhistogram
measured: a sharp picture has strong edges, a blurred or out-of-focus one
weak edges (turn the focus ring of the webcam and watch the number).
PROP=VALUE go to clgaussian: sigma=3 blurs more and the focus measure falls.

  examples/launch/chain.sh                   # webcam -> window, numbers on stdout
  examples/launch/chain.sh --headless sigma=3
"
source "$(dirname "$0")/common.sh" "$@"

cl=$(clf_cl_props)
# -m prints every bus message; awk keeps the clhistogram ones and reads three
# fields of each: the timestamp and the first (only: luma) value of the
# arrays mean and high (the 99th percentile)
clf_launch -m -- "video/x-raw,format=GRAY8 ! clgaussian sigma=1$cl ${CLF_PROPS[*]} ! \
  cllaplace mode=edges strength=4$cl ! clhistogram bins=16$cl" |
  awk '
    function field(name, re,   s) {
      if (!match($0, name "=\\([a-z0-9]+\\)" re)) return "?"
      s = substr($0, RSTART, RLENGTH); sub(/^[^)]*\)/, "", s); gsub(/[< ]/, "", s)
      return s
    }
    /\(element\): clhistogram,/ {
      n++
      ts = field("timestamp", "[0-9]+")
      printf "frame %3d  t=%7.3fs  focus (mean edge level) %6.2f   99th percentile %s\n",
        n, ts / 1e9, field("mean", "< [0-9.e+-]+"), field("high", "< [0-9]+")
      fflush()
      next
    }
    /^ERROR|^WARNING|^Additional|^\.\.\/|^[a-z]/ { print; fflush() }
    END { if (n == 0 && ENVIRON["CLF_DRY_RUN"] != 1) { print "chain.sh: no clhistogram message"; exit 1 } }
  '
