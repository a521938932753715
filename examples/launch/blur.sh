#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING)
CLF_USAGE="blur.sh [options] [PROP=VALUE...]: Gaussian blur (clgaussian, sigma=4 unless given)

  examples/launch/blur.sh                          # webcam -> blur -> window
  examples/launch/blur.sh sigma=8                  # stronger
  examples/launch/blur.sh -i in.webm -o out.webm   # file -> blur -> file
  examples/launch/blur.sh --headless -o blur.png   # photograph, 30 frames, last one to blur.png
"
source "$(dirname "$0")/common.sh" "$@"

# sigma alone: the radius follows (ceil(3 sigma)); radius=1 and no sigma is
# the exact 3x3 binomial
clf_launch "clgaussian sigma=4$(clf_cl_props) ${CLF_PROPS[*]}"
