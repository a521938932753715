# SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING)
# Source this to use the plugin from the build tree:
#     source scripts/env.sh && gst-inspect-1.0 clgaussian
_clf_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export GST_PLUGIN_PATH="$_clf_root/build/gst${GST_PLUGIN_PATH:+:$GST_PLUGIN_PATH}"
# POCL needs a writable cache directory, or its device disappears
if [ -z "${POCL_CACHE_DIR:-}" ]; then
  if ! mkdir -p "${XDG_CACHE_HOME:-$HOME/.cache}/pocl" 2>/dev/null; then
    export POCL_CACHE_DIR="$_clf_root/build/pocl-cache"
  fi
fi
unset _clf_root
