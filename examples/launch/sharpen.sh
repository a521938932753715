#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING)
CLF_USAGE="sharpen.sh [options] [PROP=VALUE...]: Laplace sharpen (cllaplace mode=sharpen strength=0.5 unless given)

  examples/launch/sharpen.sh                         # webcam -> sharpen -> window
  examples/launch/sharpen.sh strength=1              # out = 9c - (sum of the 8 neighbours)
  examples/launch/sharpen.sh -i in.webm -o out.webm  # file -> sharpen -> file
  examples/launch/sharpen.sh --headless -o sharp.png
"
source "$(dirname "$0")/common.sh" "$@"

# out = clamp(c + strength * L), L = 8c - (sum of the 8 neighbours)
clf_launch "cllaplace mode=sharpen strength=0.5$(clf_cl_props) ${CLF_PROPS[*]}"
