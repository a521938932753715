#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING)
# make-clip.sh [-n FRAMES_PER_PHOTO] [-s WxH] [OUT]: a short clip of
# photographs (scikit-image's astronaut, coffee, chelsea, rocket and
# motorcycle), one after the other, cropped to the shape of WxH and scaled
# to it (default 640x360), 25 frames (one second) each. OUT (default clip.webm)
# may be .webm, .mkv (VP8), .avi (MJPEG), .ogv (Theora) or .mp4 (x264enc).
# A file input for the other scripts, in place of a camera:
#
#   examples/launch/make-clip.sh /tmp/clip.webm
#   examples/launch/blur.sh -i /tmp/clip.webm -o /tmp/blurred.webm
set -euo pipefail
per_photo=25
clip_size=640x360
out=clip.webm
while [ $# -gt 0 ]; do
  case $1 in
    -n) per_photo=$2; shift ;;
    -s) clip_size=$2; shift ;;
    -h|--help) sed -n '2,/^set /p' "$0" | grep '^#' | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "make-clip.sh: unknown option $1" >&2; exit 2 ;;
    *) out=$1 ;;
  esac
  shift
done
source "$(dirname "$0")/common.sh" -o "$out"

w=${clip_size%x*} h=${clip_size#*x}
branches=""
for name in astronaut.png coffee.png chelsea.png rocket.jpg motorcycle_left.png; do
  photo=$(clf_photo "$name")
  [ -f "$photo" ] || { echo "make-clip.sh: no $name: install python3-skimage" >&2; exit 1; }
  # imagefreeze repeats the picture; aspectratiocrop cuts it to the clip's
  # shape so that videoscale fills the frame without black borders
  branches+=" filesrc location=\"$photo\" ! decodebin ! imagefreeze num-buffers=$per_photo ! videoconvert !"
  branches+=" aspectratiocrop aspect-ratio=$w/$h ! videoscale !"
  branches+=" video/x-raw,format=I420,width=$w,height=$h,pixel-aspect-ratio=1/1,framerate=25/1,colorimetry=bt601,chroma-site=mpeg2 ! c."
done
pipeline="concat name=c ! $(clf_sink) $branches"
echo "+ gst-launch-1.0 -q $pipeline" >&2
# GStreamer 1.22's concat now and then stalls for good at a switch of its
# inputs, every streaming thread idle (here about 1 run in 40 with the CPU
# busy; the pipeline has no clfilters element): a run that has not ended
# in a minute plus half a second a frame of 640x360 (scaled by the size;
# the default clip takes a few seconds) is stopped and run again
limit=$((60 + 5 * per_photo * w * h / (640 * 360) / 2))
for try in 1 2 3; do
  rc=0
  eval "timeout $limit gst-launch-1.0 -q $pipeline" || rc=$?
  [ "$rc" -ne 124 ] && break
  echo "make-clip.sh: gst-launch-1.0 stalled (try $try of 3)" >&2
done
[ "$rc" -eq 0 ] || exit "$rc"
echo "make-clip.sh: wrote $out"
