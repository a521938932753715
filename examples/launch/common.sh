# SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING)
# shellcheck shell=bash
# Shared by the scripts in examples/launch/ (sourced, not run). It parses the
# options every script takes, builds the source and sink ends of the pipeline
# and runs gst-launch-1.0. A script sets CLF_USAGE (its own help text) and
# CLF_MAIN (the default properties of its main element), sources this file,
# then calls clf_launch with the middle of its pipeline.
#
# Options (each has an environment variable, the option wins):
#   -H, --headless        CLF_HEADLESS=1  no camera and no window: input "photo"
#                                         (or "test"), output "none", 30 frames
#   -i, --input SRC       CLF_INPUT       camera (v4l2src, the live default),
#                                         photo (a photograph from scikit-image),
#                                         test (videotestsrc), or a video or
#                                         image file
#   -o, --output DST      CLF_OUTPUT      window (autovideosink, the live
#                                         default), none (fakesink), or a file:
#                                         .png (the last frame, or one file per
#                                         frame with a %05d in the name),
#                                         .webm .mkv (VP8), .avi (MJPEG), .ogv
#                                         (Theora), .mp4 (H.264, needs x264enc)
#   -n, --frames N        CLF_FRAMES      stop after N frames (0: never; from
#                                         a video file: at most N)
#   -d, --device SEL      CLF_DEVICE      OpenCL device of every clfilters
#                                         element (default: GST_CL_DEVICE, else
#                                         the first GPU, else the first device)
#   -m, --storage KIND    CLF_MEMORY      the storage property: auto, buffer or
#                                         image (--memory: the same)
#   -s, --size WxH        CLF_SIZE        scale the input to this size
#       --camera DEV      CLF_CAMERA      the V4L2 device (default /dev/video0)
#   -v, --verbose                         gst-launch-1.0 -v: the negotiated caps
#                                         and the device-name each element uses
#       --dry-run                         print the gst-launch-1.0 command only
#   PROP=VALUE ...                        more properties of the main element
#
# The plugin is taken from the build tree (build/gst, through scripts/env.sh)
# when there is one, else from GStreamer's plugin path (an installed plugin).

set -euo pipefail

CLF_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
if [ -z "${CLF_NO_BUILD_TREE:-}" ] && [ -d "$CLF_ROOT/build/gst" ]; then
  # shellcheck source=../../scripts/env.sh
  source "$CLF_ROOT/scripts/env.sh"
fi

CLF_PYTHON=${CLF_PYTHON:-/usr/bin/python3}

clf_usage() {
  printf '%s\n' "$CLF_USAGE"
  sed -n '/^# Options/,/^#$/p' "$CLF_ROOT/examples/launch/common.sh" | sed 's/^# \{0,1\}//'
  exit "${1:-0}"
}

headless=${CLF_HEADLESS:-0}
input=${CLF_INPUT:-}
output=${CLF_OUTPUT:-}
frames=${CLF_FRAMES:-}
device=${CLF_DEVICE:-}
memory=${CLF_MEMORY:-}
size=${CLF_SIZE:-}
camera=${CLF_CAMERA:-/dev/video0}
verbose=0
dry_run=${CLF_DRY_RUN:-0}
CLF_PROPS=()

while [ $# -gt 0 ]; do
  case $1 in
    -h|--help) clf_usage 0 ;;
    -H|--headless) headless=1 ;;
    -i|--input) input=$2; shift ;;
    -o|--output) output=$2; shift ;;
    -n|--frames) frames=$2; shift ;;
    -d|--device) device=$2; shift ;;
    -m|--storage|--memory) memory=$2; shift ;;
    -s|--size) size=$2; shift ;;
    --camera) camera=$2; shift ;;
    -v|--verbose) verbose=1 ;;
    --dry-run) dry_run=1 ;;
    --) ;;
    *=*) CLF_PROPS+=("$1") ;;
    *) echo "$(basename "$0"): unknown option $1" >&2; clf_usage 2 >&2 ;;
  esac
  shift
done

export CLF_DRY_RUN=$dry_run
if [ "$headless" = 1 ]; then
  input=${input:-photo}
  output=${output:-none}
  frames=${frames:-30}
else
  input=${input:-camera}
  output=${output:-window}
  frames=${frames:-0}
fi

# clf_photo NAME: the path of one of scikit-image's sample photographs
clf_photo() {
  "$CLF_PYTHON" -c 'import os, sys, skimage.data as d
print(os.path.join(os.path.dirname(d.__file__), sys.argv[1]))' "$1" 2>/dev/null
}

# The properties shared by every clfilters element of the pipeline
clf_cl_props() {
  local p=""
  [ -n "$device" ] && p+=" device=\"$device\""
  [ -n "$memory" ] && p+=" storage=$memory"
  printf '%s' "$p"
}

# The source end of the pipeline, ending in raw video of any format. The
# frame limit is the num-buffers of the camera, test and photo sources
# (exact); a file goes through identity eos-after=N, which stops at most N
# frames in (N - 1 or N, depending on how the decoder pushes them).
clf_source() {
  local src nb=""
  [ "${frames:-0}" -gt 0 ] && nb=" num-buffers=$frames"
  case $input in
    camera)
      src="v4l2src device=$camera$nb ! decodebin ! videoconvert" ;;
    test)
      src="videotestsrc pattern=smpte$nb ! video/x-raw,width=640,height=480 ! videoconvert" ;;
    photo)
      local photo
      photo=$(clf_photo astronaut.png)
      if [ -n "$photo" ] && [ -f "$photo" ]; then
        src="filesrc location=\"$photo\" ! pngdec ! imagefreeze$nb ! videoconvert"
      else
        echo "$(basename "$0"): no scikit-image photograph (python3-skimage): using videotestsrc" >&2
        src="videotestsrc pattern=smpte$nb ! video/x-raw,width=640,height=480 ! videoconvert"
      fi ;;
    *)
      if [ ! -f "$input" ]; then
        echo "$(basename "$0"): no such input file: $input" >&2
        exit 2
      fi
      case ${input,,} in
        *.png|*.jpg|*.jpeg|*.bmp|*.gif|*.tif|*.tiff)  # a still picture: repeat it
          src="filesrc location=\"$input\" ! decodebin ! imagefreeze$nb ! videoconvert" ;;
        *)
          src="filesrc location=\"$input\" ! decodebin ! videoconvert"
          [ -n "$nb" ] && src+=" ! identity eos-after=$frames" ;;
      esac ;;
  esac
  if [ -n "$size" ]; then
    src+=" ! videoscale ! video/x-raw,width=${size%x*},height=${size#*x},pixel-aspect-ratio=1/1"
  fi
  printf '%s' "$src"
}

# The sink end of the pipeline, taking raw video of any format
clf_sink() {
  local enc
  case $output in
    window)
      if [ -z "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && [ "$dry_run" = 0 ]; then
        # autovideosink has nothing to show on (and its DirectFB candidate
        # may crash trying): say so instead
        echo "$(basename "$0"): no display (DISPLAY, WAYLAND_DISPLAY): use --headless or -o FILE" >&2
        exit 2
      fi
      printf '%s' "videoconvert ! autovideosink"; return ;;
    none) printf '%s' "fakesink sync=false"; return ;;
  esac
  case ${output,,} in
    *%*.png) enc="pngenc ! multifilesink location=\"$output\"" ;;
    *.png) enc="pngenc ! multifilesink location=\"$output\"" ;;  # overwritten: the last frame stays
    *.webm) enc="vp8enc deadline=1 ! webmmux ! filesink location=\"$output\"" ;;
    *.mkv) enc="vp8enc deadline=1 ! matroskamux ! filesink location=\"$output\"" ;;
    *.avi) enc="jpegenc ! avimux ! filesink location=\"$output\"" ;;
    *.ogv|*.ogg) enc="theoraenc ! oggmux ! filesink location=\"$output\"" ;;
    *.mp4)
      if ! gst-inspect-1.0 x264enc >/dev/null 2>&1; then
        echo "$(basename "$0"): .mp4 needs x264enc (gstreamer1.0-plugins-ugly); use .webm, .mkv or .avi" >&2
        exit 2
      fi
      enc="x264enc ! mp4mux ! filesink location=\"$output\"" ;;
    *) echo "$(basename "$0"): unknown output kind: $output (window, none, or .png .webm .mkv .avi .ogv .mp4)" >&2
       exit 2 ;;
  esac
  if [ "$output" != "${output%/*}" ]; then mkdir -p "${output%/*}"; fi
  printf '%s' "videoconvert ! $enc"
}

# clf_launch [gst-launch options --] MIDDLE: runs SOURCE ! MIDDLE ! SINK
clf_launch() {
  local opts=()
  while [ $# -gt 1 ]; do
    if [ "$1" = "--" ]; then shift; break; fi
    opts+=("$1"); shift
  done
  [ "$verbose" = 1 ] && opts+=(-v)
  local src sink pipeline
  src=$(clf_source)     # (each on its own line: set -e stops at a failure)
  sink=$(clf_sink)
  pipeline="$src ! $1 ! $sink"
  if [ "$dry_run" = 1 ]; then
    echo "gst-launch-1.0 ${opts[*]} $pipeline"
    return 0
  fi
  echo "+ gst-launch-1.0 ${opts[*]} $pipeline" >&2
  # word splitting is what gst-launch-1.0 expects: quoted values stay whole
  eval "gst-launch-1.0 -e ${opts[*]} $pipeline"
}
