/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* plugin.c: registers the clfilters elements.
 *
 * No OpenCL call happens here: the plugin loads (and gst-inspect works) on
 * machines without any OpenCL driver; devices are opened when an element
 * starts.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "elements/gstclgaussian.h"
#include "elements/gstcllaplace.h"
#include "elements/gstclhistogram.h"
#include "elements/gstclmemorycopy.h"
#include "elements/gstclclahe.h"
#include "elements/gstcltonemap.h"

static gboolean
plugin_init (GstPlugin * plugin)
{
  gboolean ok = FALSE;
  ok |= GST_ELEMENT_REGISTER (clgaussian, plugin);
  ok |= GST_ELEMENT_REGISTER (cllaplace, plugin);
  ok |= GST_ELEMENT_REGISTER (clhistogram, plugin);
  ok |= GST_ELEMENT_REGISTER (clupload, plugin);
  ok |= GST_ELEMENT_REGISTER (cldownload, plugin);
  ok |= GST_ELEMENT_REGISTER (clclahe, plugin);
  ok |= GST_ELEMENT_REGISTER (cltonemap, plugin);
  return ok;
}

GST_PLUGIN_DEFINE (GST_VERSION_MAJOR, GST_VERSION_MINOR, clfilters,
    "Video filters on OpenCL: Gaussian blur, Laplace sharpen and edges, "
    "histograms, upload and download", plugin_init, VERSION, "LGPL", PACKAGE, ORIGIN)
