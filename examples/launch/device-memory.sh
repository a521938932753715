#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING)
CLF_USAGE="device-memory.sh [options] [PROP=VALUE...]: the same blur with each storage, on the device you choose

Lists the OpenCL devices (clinfo -l), then runs clgaussian sigma=4
profiling=true once with storage=buffer and once with storage=image (only the
kind -m names, if given) and prints the device each ran on (the read-only
device-name property, which gst-launch-1.0 -v shows) and the cl-profile
messages: average upload, kernel and download times per frame.
Live, each kind runs 150 frames (-n) to a window; with an output file, the
kind goes into its name (out.webm: out-buffer.webm, out-image.webm).

  examples/launch/device-memory.sh -d gpu            # the first GPU
  examples/launch/device-memory.sh -d cpu -m buffer  # POCL, buffers only
  GST_CL_DEVICE=1.0 examples/launch/device-memory.sh # platform 1, device 0
  examples/launch/device-memory.sh --headless
"
source "$(dirname "$0")/common.sh" "$@"

if command -v clinfo >/dev/null; then
  echo "OpenCL devices (clinfo -l; select one with -d, the device property or GST_CL_DEVICE):"
  clinfo -l
else
  echo "(install clinfo to list the OpenCL devices)"
fi
if [ -n "$device" ]; then echo "device property: \"$device\""
elif [ -n "${GST_CL_DEVICE:-}" ]; then echo "GST_CL_DEVICE=\"$GST_CL_DEVICE\""
else echo "no selector: the first GPU, else the first device"; fi

[ "$frames" = 0 ] && frames=150
kinds=(buffer image)
[ -n "$memory" ] && kinds=("$memory")
out=$output
for kind in "${kinds[@]}"; do
  memory=$kind
  case $out in
    window|none) ;;
    *) output="${out%.*}-$kind.${out##*.}" ;;
  esac
  echo "== storage=$kind"
  # -v prints property changes, among them device-name once the element has
  # opened its device; -m prints the cl-profile messages
  clf_launch -v -m -- "clgaussian sigma=4 profiling=true$(clf_cl_props) ${CLF_PROPS[*]}" 2>&1 |
    awk '
      /clgaussian0: device-name = / { dev = 1; sub(/.*device-name = /, "  device: "); print; fflush(); next }
      function ms(name,   s) {   # a guint64 field in ns, as milliseconds
        if (!match($0, name "=\\(guint64\\)[0-9]+")) return "?"
        s = substr($0, RSTART, RLENGTH); sub(/.*\)/, "", s)
        return sprintf("%8.3f ms", s / 1e6)
      }
      /\(element\): cl-profile,/ {
        n = $0; sub(/.*frames=\(uint\)/, "", n); sub(/,.*/, "", n)
        printf "  cl-profile, %3d frames: upload %s  kernel %s  download %s per frame\n",
          n, ms("upload-ns"), ms("kernel-ns"), ms("download-ns")
        fflush(); next
      }
      /^ERROR|^WARNING|^Additional|^\.\.\/|^[a-z]|^\+ gst-launch/ { print "  " $0; fflush() }
      END { if (!dev && ENVIRON["CLF_DRY_RUN"] != 1) { print "  device-memory.sh: no device-name: the element did not start"; exit 1 } }
    '
done
