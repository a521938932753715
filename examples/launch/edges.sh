#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING)
CLF_USAGE="edges.sh [options] [PROP=VALUE...]: edges of the luma (clgaussian, then cllaplace mode=edges strength=4; PROP=VALUE go to cllaplace)

  examples/launch/edges.sh                         # webcam -> edges -> window
  examples/launch/edges.sh strength=8              # brighter edges
  examples/launch/edges.sh -i in.webm -o out.webm  # file -> edges -> file
  examples/launch/edges.sh --headless -o edges.png
"
source "$(dirname "$0")/common.sh" "$@"

# Gray first: the edges of the brightness, one plane to filter. A light blur
# before the Laplacian (a "Laplacian of Gaussian") keeps noise from looking
# like edges; both elements run on the same OpenCL device and context.
cl=$(clf_cl_props)
clf_launch "video/x-raw,format=GRAY8 ! clgaussian sigma=1$cl ! cllaplace mode=edges strength=4$cl ${CLF_PROPS[*]}"
