#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING)
# Regenerates docs/inspect/ELEMENT.txt, the gst-inspect-1.0 output of each
# element, from the plugin in build/gst:
#
#   docs/inspect/update.sh            # after changing an element: rewrite the files
#   docs/inspect/update.sh --check    # compare only (the test `inspect-docs`)
#
# The files are gst-inspect-1.0 ELEMENT without colours, with the plugin's
# Filename shortened to .../libgstclfilters.so (it names the build folder of
# whoever ran this). --check also ignores the Version line, so that a
# version bump alone does not fail the test. gst-inspect-1.0's layout
# changes between GStreamer versions: --check skips (exit 77) when the
# GStreamer major.minor is not the one in GSTREAMER_VERSION, where
# update.sh records it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
elements=(clgaussian cllaplace clhistogram clupload cldownload clclahe cltonemap)

# the plugin of the build tree (the test suite sets GST_PLUGIN_PATH_1_0 itself)
if [ -z "${GST_PLUGIN_PATH_1_0:-}" ]; then
  source "$root/scripts/env.sh"
fi
export GST_INSPECT_NO_COLORS=1 GST_PAGER=cat PAGER=cat

version=$(gst-inspect-1.0 --version | sed -n 's/^GStreamer \([0-9]*\.[0-9]*\).*/\1/p')

# Deprecated properties (flag "deprecated", such as the filters' `memory`,
# the old name of `storage`) are left out of the docs: a property's block is
# its "  name : blurb" line and the indented lines under it.
drop_deprecated() {
  awk '
    function flush() { if (block != "" && !dep) printf "%s", block; block = ""; dep = 0 }
    /^  [a-z][a-z0-9-]* *: / { flush(); inprop = 1 }
    inprop && !/^  [a-z][a-z0-9-]* *: / && !/^                        / { flush(); inprop = 0 }
    inprop { block = block $0 "\n"; if ($0 ~ /^ *flags: .*deprecated/) dep = 1; next }
    { print }
    END { flush() }'
}

inspect() {   # the committed form of gst-inspect-1.0 ELEMENT
  gst-inspect-1.0 --no-colors "$1" |
    sed -e 's/\x1b\[[0-9;]*m//g' \
        -e 's|^\(  Filename  *\).*/\(libgstclfilters\.so\)$|\1.../\2|' |
    drop_deprecated
}
no_version() { sed 's/^\(  Version  *\).*/\1(ignored)/'; }

if [ "${1:-}" = "--check" ]; then
  recorded=$(cat "$here/GSTREAMER_VERSION")
  if [ "$version" != "$recorded" ]; then
    echo "docs/inspect was generated with GStreamer $recorded, this is $version: not compared"
    exit 77
  fi
  status=0
  for e in "${elements[@]}"; do
    if ! diff -u <(no_version < "$here/$e.txt") <(inspect "$e" | no_version) \
        > "${TMPDIR:-/tmp}/inspect-$e.diff"; then
      echo "docs/inspect/$e.txt does not match the built plugin (- committed, + built):"
      cat "${TMPDIR:-/tmp}/inspect-$e.diff"
      status=1
    else
      echo "docs/inspect/$e.txt matches the built plugin"
    fi
    rm -f "${TMPDIR:-/tmp}/inspect-$e.diff"
  done
  [ "$status" -eq 0 ] || echo "Run docs/inspect/update.sh (after ninja -C build) and commit the files, if the change is meant."
  exit "$status"
fi

for e in "${elements[@]}"; do
  file=$(gst-inspect-1.0 --no-colors "$e" | sed -n 's/^  Filename  *//p')
  case $file in
    "$root"/*) ;;
    *) echo "update.sh: $e comes from $file, not from this build tree" >&2; exit 1 ;;
  esac
  inspect "$e" > "$here/$e.txt"
  echo "wrote docs/inspect/$e.txt"
done
echo "$version" > "$here/GSTREAMER_VERSION"
