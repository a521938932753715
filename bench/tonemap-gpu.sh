#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING)
# cltonemap against FFmpeg's tonemap_opencl on a GPU (issue 35), in one run:
# the device time of tonemap_opencl's kernels (bench/probes/clkernels.c,
# preloaded into FFmpeg) and of cltonemap's (devbench), on 4K P010 PQ into
# NV12, and FFmpeg's whole run a frame.
#
#   bench/tonemap-gpu.sh [BUILD] [FFMPEG_BUILD] [FRAMES]
#       (defaults build, build-ffmpeg, 100)
#
# FFMPEG_BUILD/bin holds `ffmpeg` and `libclkernels.so`
# (bench/ffmpeg-opencl.sh builds both). On the lent GPU machine, carry
# .gpu, BUILD and FFMPEG_BUILD/bin; .gpu/env.sh is sourced when present.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
ff=${2:-build-ffmpeg}
n=${3:-100}
if [ -z "${GST_PLUGIN_SYSTEM_PATH_1_0:-}" ] && [ -f .gpu/env.sh ]; then
  # shellcheck disable=SC1091
  source .gpu/env.sh
fi

# FFmpeg: PQ BT.2020 test frames made on the CPU, uploaded, tone-mapped
# with hable (no desaturation, as the CPU recipe of bench/tonemap.sh) into
# NV12 BT.709, downloaded; its peak detection is on (its default)
vf="format=p010le,setparams=color_primaries=bt2020:color_trc=smpte2084"
vf="$vf:colorspace=bt2020nc:range=tv,hwupload"
vf="$vf,tonemap_opencl=tonemap=hable:desat=0:t=bt709:m=bt709:p=bt709"
vf="$vf:format=nv12,hwdownload,format=nv12"
echo "## FFmpeg tonemap_opencl, 3840x2160, $n frames"
LD_PRELOAD=$PWD/$ff/bin/libclkernels.so "$ff/bin/ffmpeg" -hide_banner -benchmark \
  -init_hw_device opencl=ocl:,device_type=gpu -filter_hw_device ocl \
  -f lavfi -i "testsrc2=size=3840x2160:rate=25" -frames:v "$n" -vf "$vf" \
  -f null - 2>&1 | grep -E "clkernels|bench:|Error|error" || true

echo "## cltonemap (devbench, kernel ms a frame)"
GST_PLUGIN_PATH=$build/gst "$build/bench/devbench" --device gpu --sizes 4k \
  --frames "$n" --only cltonemap 2>/dev/null | grep -E "^\| cltonemap|^###"
echo "## cltonemap's kernels (clprofile medians, dynamic peak: 0 the"
echo "## histogram, 1 the curve, 2 the map)"
GST_PLUGIN_PATH=$build/gst GST_DEBUG=clprofile:6 "$build/bench/devbench" \
  --device gpu --sizes 4k --frames "$n" --only "cltonemap peak-mode=dynamic" \
  2>&1 >/dev/null | python3 -c '
import re, statistics, sys
t = {}
for line in sys.stdin:
    m = re.search(r"kernel (\d+): (\d+) ns", line)
    if m:
        t.setdefault(m.group(1), []).append(int(m.group(2)) / 1000)
for k in sorted(t):
    print("kernel %s: %d launches, median %.1f us" % (k, len(t[k]),
                                                     statistics.median(t[k])))'
