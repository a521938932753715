/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstcltonemapcaps.c: cltonemap's caps.
 *
 * HDR input (colorimetry transfer smpte2084 or arib-std-b67) gives, in both
 * memories, the input's 8-bit sibling first and then the input's own
 * format, with BT.709 colorimetry in the input's range; any other input
 * passes through (the same caps on both pads). Input whose colorimetry is
 * not decided yet (caps queries) gives both. What cannot be mapped
 * (missing colorimetry, an unknown transfer, matrix or range, primaries
 * other than BT.2020 or BT.709) is refused in set_info with the reason. */
#include "gstcltonemapcaps.h"
#include "gstcltonemapcurve.h"
#include "core/gstclcaps.h"
#include "gstclshared.h"

#include <math.h>
#include <string.h>

GST_DEBUG_CATEGORY_STATIC (gst_cl_tonemap_caps_debug);
#define GST_CAT_DEFAULT gst_cl_tonemap_caps_debug

/* input format, its 8-bit sibling, and how the kernels read them */
static const struct
{
  GstVideoFormat in, out;
  gint kind;
} siblings[] = {
  {GST_VIDEO_FORMAT_P010_10LE, GST_VIDEO_FORMAT_NV12, GST_CL_TONEMAP_KIND_SEMI},
  {GST_VIDEO_FORMAT_P016_LE, GST_VIDEO_FORMAT_NV12, GST_CL_TONEMAP_KIND_SEMI},
  {GST_VIDEO_FORMAT_I420_10LE, GST_VIDEO_FORMAT_I420,
      GST_CL_TONEMAP_KIND_PLANAR},
  {GST_VIDEO_FORMAT_I420_12LE, GST_VIDEO_FORMAT_I420,
      GST_CL_TONEMAP_KIND_PLANAR},
  {GST_VIDEO_FORMAT_Y444_16LE, GST_VIDEO_FORMAT_Y444,
      GST_CL_TONEMAP_KIND_PLANAR},
  {GST_VIDEO_FORMAT_RGBA64_LE, GST_VIDEO_FORMAT_RGBA,
      GST_CL_TONEMAP_KIND_RGBA},
};

static void
debug_init (void)
{
  static gsize done = 0;
  if (g_once_init_enter (&done)) {
    GST_DEBUG_CATEGORY_INIT (gst_cl_tonemap_caps_debug, "cltonemapcaps", 0,
        "cltonemap caps");
    g_once_init_leave (&done, 1);
  }
}

/* the kind of @format for the kernels, -1 if cltonemap does not take it */
static gint
format_kind (GstVideoFormat format)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (siblings); i++)
    if (siblings[i].in == format || siblings[i].out == format)
      return siblings[i].kind;
  return -1;
}

/* Whether the transfer of the colorimetry field @s holds is PQ or HLG:
 * 1 yes, 0 no (known and not HDR), -1 not decided (absent, not a fixed
 * string, or not parsed: set_info says why). */
static gint
structure_is_hdr (const GstStructure * s)
{
  const gchar *str = gst_structure_get_string (s, "colorimetry");
  GstVideoColorimetry c;

  if (!str || !gst_video_colorimetry_from_string (&c, str) ||
      c.transfer == GST_VIDEO_TRANSFER_UNKNOWN)
    return -1;
  return c.transfer == GST_VIDEO_TRANSFER_SMPTE2084 ||
      c.transfer == GST_VIDEO_TRANSFER_ARIB_STD_B67;
}

/* appends to @list the formats that @v (a format string or a list of
 * them) maps to: @direction GST_PAD_SINK: the siblings (@own FALSE) or
 * the formats themselves (@own TRUE); GST_PAD_SRC: the inputs that give
 * them */
static void
map_formats (const GValue * v, GstPadDirection direction, gboolean own,
    GValue * list)
{
  guint i, j, n = GST_VALUE_HOLDS_LIST (v) ? gst_value_list_get_size (v) : 1;

  for (i = 0; i < n; i++) {
    const GValue *f = GST_VALUE_HOLDS_LIST (v) ?
        gst_value_list_get_value (v, i) : v;
    GstVideoFormat fmt;
    if (!G_VALUE_HOLDS_STRING (f))
      continue;
    fmt = gst_video_format_from_string (g_value_get_string (f));
    for (j = 0; j < G_N_ELEMENTS (siblings); j++) {
      GstVideoFormat to = GST_VIDEO_FORMAT_UNKNOWN;
      GValue s = G_VALUE_INIT;
      if (siblings[j].in == fmt && (direction == GST_PAD_SRC || own))
        to = fmt;
      else if (direction == GST_PAD_SINK && siblings[j].in == fmt)
        to = siblings[j].out;
      else if (direction == GST_PAD_SRC && siblings[j].out == fmt)
        to = siblings[j].in;
      if (to == GST_VIDEO_FORMAT_UNKNOWN)
        continue;
      g_value_init (&s, G_TYPE_STRING);
      g_value_set_string (&s, gst_video_format_to_string (to));
      gst_value_list_append_and_take_value (list, &s);
    }
  }
}

/* @s with its formats mapped (map_formats()), NULL if none is left */
static GstStructure *
with_formats (const GstStructure * s, GstPadDirection direction,
    gboolean own)
{
  const GValue *v = gst_structure_get_value (s, "format");
  GValue list = G_VALUE_INIT;
  GstStructure *res;

  g_value_init (&list, GST_TYPE_LIST);
  if (v)
    map_formats (v, direction, own, &list);
  if (gst_value_list_get_size (&list) == 0) {
    g_value_unset (&list);
    return NULL;
  }
  res = gst_structure_copy (s);
  gst_structure_remove_fields (res, "mastering-display-info",
      "content-light-level", NULL);
  if (gst_value_list_get_size (&list) == 1)
    gst_structure_set_value (res, "format", gst_value_list_get_value (&list,
            0));
  else
    gst_structure_set_value (res, "format", &list);
  g_value_unset (&list);
  return res;
}

/* BT.709 colorimetry in the range of the HDR input @s (matrix RGB for RGB
 * formats, which have none) */
static void
set_sdr_colorimetry (GstStructure * res, const GstStructure * s,
    gboolean rgb)
{
  GstVideoColorimetry c;
  gchar *str;

  gst_video_colorimetry_from_string (&c, gst_structure_get_string (s,
          "colorimetry"));
  c.matrix = rgb ? GST_VIDEO_COLOR_MATRIX_RGB : GST_VIDEO_COLOR_MATRIX_BT709;
  c.transfer = GST_VIDEO_TRANSFER_BT709;
  c.primaries = GST_VIDEO_COLOR_PRIMARIES_BT709;
  str = gst_video_colorimetry_to_string (&c);
  gst_structure_set (res, "colorimetry", G_TYPE_STRING, str, NULL);
  g_free (str);
}

/* What the HDR (or undecided) input @s gives: the siblings, then the
 * input's formats, BT.709 when the input's colorimetry is known. */
static void
append_hdr_outputs (GstCaps * res, const GstStructure * s, gboolean decided)
{
  gboolean own;

  for (own = FALSE; own <= TRUE; own++) {
    GstStructure *o = with_formats (s, GST_PAD_SINK, own);
    const gchar *fmt;
    if (!o)
      continue;
    fmt = gst_structure_get_string (o, "format");
    if (decided)
      set_sdr_colorimetry (o, s, fmt && GST_VIDEO_FORMAT_INFO_IS_RGB
          (gst_video_format_get_info (gst_video_format_from_string (fmt))));
    else
      gst_structure_remove_field (o, "colorimetry");
    gst_caps_append_structure (res, o);
  }
}

/**
 * gst_cl_tonemap_transform_caps:
 *
 * The caps on the other pad for @caps on @direction's pad (without the
 * filter: the element intersects).
 *
 * Returns: (transfer full): the caps
 */
GstCaps *
gst_cl_tonemap_transform_caps (GstPadDirection direction, GstCaps * caps)
{
  GstCaps *hdr = gst_caps_new_empty (), *res = gst_caps_new_empty ();
  guint i;

  debug_init ();
  for (i = 0; i < gst_caps_get_size (caps); i++) {
    const GstStructure *s = gst_caps_get_structure (caps, i);
    GstCapsFeatures *f = gst_caps_get_features (caps, i);
    gint is_hdr = structure_is_hdr (s);
    if (direction == GST_PAD_SRC) {
      GstStructure *o = with_formats (s, GST_PAD_SRC, TRUE);
      if (o) {
        gst_structure_remove_field (o, "colorimetry");
        gst_caps_append_structure (hdr, o);
      }
      continue;
    }
    if (is_hdr != 0)
      append_hdr_outputs (hdr, s, is_hdr == 1);
    /* SDR passes through, and so may undecided input */
    if (is_hdr != 1)
      res = gst_caps_merge_structure_full (res, gst_structure_copy (s),
          f ? gst_caps_features_copy (f) : NULL);
  }
  /* device memory first: neighbours on the device keep frames there */
  res = gst_caps_merge (gst_cl_caps_with_memories (hdr, TRUE, TRUE), res);
  gst_caps_unref (hdr);
  GST_LOG ("%s %" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT,
      direction == GST_PAD_SINK ? "sink" : "src", caps, res);
  return res;
}

/* Kr and Kb of @matrix, the range's offsets and scales at @depth */
static void
set_yuv (cl_float * cfg, guint at, GstVideoColorMatrix matrix,
    GstVideoColorRange range, guint depth)
{
  gdouble kr = 0.2126, kb = 0.0722, u = (gdouble) (1u << depth) / 256.0;
  gdouble maxv = (gdouble) ((1u << depth) - 1);

  gst_video_color_matrix_get_Kr_Kb (matrix, &kr, &kb);
  cfg[at + 0] = kr;
  cfg[at + 1] = kb;
  cfg[at + 2] = range == GST_VIDEO_COLOR_RANGE_0_255 ? 0.0 : 16 * u;
  cfg[at + 3] = range == GST_VIDEO_COLOR_RANGE_0_255 ? maxv : 219 * u;
  cfg[at + 4] = range == GST_VIDEO_COLOR_RANGE_0_255 ? 128 * u : 128 * u;
  cfg[at + 5] = range == GST_VIDEO_COLOR_RANGE_0_255 ? maxv : 224 * u;
}

static void
set_format (const GstVideoInfo * info, cl_int8 * fmt)
{
  const GstVideoFormatInfo *fi = info->finfo;
  gint kind = format_kind (GST_VIDEO_INFO_FORMAT (info));

  memset (fmt, 0, sizeof (*fmt));
  fmt->s[0] = kind;
  fmt->s[1] = kind == GST_CL_TONEMAP_KIND_RGBA ? 0 :
      GST_VIDEO_FORMAT_INFO_W_SUB (fi, 1);
  fmt->s[2] = kind == GST_CL_TONEMAP_KIND_RGBA ? 0 :
      GST_VIDEO_FORMAT_INFO_H_SUB (fi, 1);
  fmt->s[4] = GST_VIDEO_FORMAT_INFO_DEPTH (fi, 0);
  fmt->s[3] = fmt->s[4] > 8 ? 2 : 1;
  fmt->s[5] = GST_VIDEO_FORMAT_INFO_SHIFT (fi, 0);
}

/* the BT.2020 to BT.709 matrix into cfg, from the chromaticities */
static gboolean
set_gamut (cl_float * cfg, GstVideoColorPrimaries primaries)
{
  const GstVideoColorPrimariesInfo *a, *b;
  gdouble src[6], dst[6], white[2] = { 0.3127, 0.3290 }, m[9];
  guint i;

  cfg[GST_CL_TONEMAP_CFG_GAMUT] = primaries != GST_VIDEO_COLOR_PRIMARIES_BT709;
  if (primaries == GST_VIDEO_COLOR_PRIMARIES_BT709)
    return TRUE;
  if (primaries != GST_VIDEO_COLOR_PRIMARIES_BT2020)
    return FALSE;
  a = gst_video_color_primaries_get_info (GST_VIDEO_COLOR_PRIMARIES_BT2020);
  b = gst_video_color_primaries_get_info (GST_VIDEO_COLOR_PRIMARIES_BT709);
  src[0] = a->Rx, src[1] = a->Ry, src[2] = a->Gx, src[3] = a->Gy;
  src[4] = a->Bx, src[5] = a->By;
  dst[0] = b->Rx, dst[1] = b->Ry, dst[2] = b->Gx, dst[3] = b->Gy;
  dst[4] = b->Bx, dst[5] = b->By;
  if (!gst_cl_tonemap_gamut_matrix (src, dst, white, m))
    return FALSE;
  for (i = 0; i < 9; i++)
    cfg[GST_CL_TONEMAP_CFG_MATRIX + i] = m[i];
  return TRUE;
}

/* what the kernels would otherwise divide by a pixel */
static void
set_reciprocals (cl_float * cfg)
{
  cfg[GST_CL_TONEMAP_CFG_IN_YINV] = 1.0 / cfg[GST_CL_TONEMAP_CFG_IN_YSCALE];
  cfg[GST_CL_TONEMAP_CFG_IN_CINV] = 1.0 / cfg[GST_CL_TONEMAP_CFG_IN_CSCALE];
  cfg[GST_CL_TONEMAP_CFG_IN_GINV] = 1.0 / (1.0 -
      cfg[GST_CL_TONEMAP_CFG_IN_KR] - cfg[GST_CL_TONEMAP_CFG_IN_KB]);
  cfg[GST_CL_TONEMAP_CFG_OUT_CBINV] = 0.5 / (1.0 -
      cfg[GST_CL_TONEMAP_CFG_OUT_KB]);
  cfg[GST_CL_TONEMAP_CFG_OUT_CRINV] = 0.5 / (1.0 -
      cfg[GST_CL_TONEMAP_CFG_OUT_KR]);
}

/* knot i's value and the step to knot i + 1, i < GST_CL_TONEMAP_LUT */
static void
set_pair (cl_float * pair, gdouble v, gdouble next)
{
  pair[0] = v;
  pair[1] = next - v;
}

/* the input's signal in [0, 1] to light */
static gdouble
signal_light (gdouble e, gboolean hlg)
{
  return hlg ? gst_cl_tonemap_hlg_inverse_oetf (e) :
      gst_cl_tonemap_pq_eotf (e);
}

/* the tables of tonemap.cl, in double precision */
static void
set_luts (cl_float * lut, gboolean hlg)
{
  const guint n = GST_CL_TONEMAP_LUT;
  guint i;

  for (i = 0; i < n; i++) {
    gdouble e0 = (gdouble) i / n, e1 = (gdouble) (i + 1) / n;
    set_pair (lut + 2 * i, signal_light (e0, hlg), signal_light (e1, hlg));
    /* over u = sqrt (L / Lt): V = (u^2)^(1 / 2.4) */
    set_pair (lut + 2 * (n + i), pow (e0, 2.0 / 2.4), pow (e1, 2.0 / 2.4));
  }
  /* the same knots for every frame's curve, whatever the input's transfer */
  for (i = 0; i <= n; i++)
    lut[GST_CL_TONEMAP_PQ_KNOTS + i] =
        (cl_float) gst_cl_tonemap_pq_eotf ((gdouble) i / n);
}

/* MaxCLL, else the mastering display's peak, in nits; 0 if neither */
static gdouble
metadata_peak (GstCaps * caps)
{
  GstVideoContentLightLevel cll;
  GstVideoMasteringDisplayInfo mdi;

  if (gst_video_content_light_level_from_caps (&cll, caps) &&
      cll.max_content_light_level > 0)
    return cll.max_content_light_level;
  if (gst_video_mastering_display_info_from_caps (&mdi, caps) &&
      mdi.max_display_mastering_luminance > 0)
    return mdi.max_display_mastering_luminance / 10000.0;
  return 0.0;
}

/* a name for @p in messages (GStreamer 1.22 has none to give) */
static const gchar *
primaries_name (GstVideoColorPrimaries p)
{
  static const gchar *names[] = { "unknown", "bt709", "bt470m", "bt470bg",
    "smpte170m", "smpte240m", "film", "bt2020", "smptest428", "smpterp431",
    "smpteeg432", "ebu3213"
  };
  return (guint) p < G_N_ELEMENTS (names) ? names[p] : "other";
}

/* the input's colorimetry, checked; @why says what is wrong */
static gboolean
input_colorimetry (GstCaps * incaps, const GstVideoInfo * in,
    GstVideoColorimetry * c, gchar ** why)
{
  const GstStructure *s = gst_caps_get_structure (incaps, 0);
  const gchar *str = gst_structure_get_string (s, "colorimetry");
  gboolean rgb = GST_VIDEO_INFO_IS_RGB (in);

  if (!str || !gst_video_colorimetry_from_string (c, str)) {
    *why = g_strdup_printf ("the input caps carry no colorimetry%s%s: "
        "cltonemap needs the transfer (smpte2084 or arib-std-b67) to map "
        "HDR, and will not guess it", str ? " it can read, " : "",
        str ? str : "");
    return FALSE;
  }
  if (c->transfer == GST_VIDEO_TRANSFER_UNKNOWN) {
    *why = g_strdup_printf ("the input colorimetry \"%s\" has no known "
        "transfer function", str);
    return FALSE;
  }
  if (c->transfer != GST_VIDEO_TRANSFER_SMPTE2084 &&
      c->transfer != GST_VIDEO_TRANSFER_ARIB_STD_B67)
    return TRUE;
  if (c->primaries != GST_VIDEO_COLOR_PRIMARIES_BT2020 &&
      c->primaries != GST_VIDEO_COLOR_PRIMARIES_BT709)
    *why = g_strdup_printf ("HDR input of primaries %s: cltonemap maps "
        "BT.2020 or BT.709 primaries only",
        primaries_name (c->primaries));
  else if (!rgb && (c->matrix == GST_VIDEO_COLOR_MATRIX_UNKNOWN ||
          c->matrix == GST_VIDEO_COLOR_MATRIX_RGB))
    *why = g_strdup_printf ("HDR input colorimetry \"%s\" has no Y'CbCr "
        "matrix", str);
  else if (!rgb && c->range == GST_VIDEO_COLOR_RANGE_UNKNOWN)
    *why = g_strdup_printf ("HDR input colorimetry \"%s\" has no range",
        str);
  return *why == NULL;
}

/**
 * gst_cl_tonemap_setup_from_caps:
 * @why: (out): why the caps cannot be mapped, when FALSE is returned
 *
 * What @incaps (and the two infos) decide: HDR or passthrough, and for HDR
 * the kernels' constants.
 */
gboolean
gst_cl_tonemap_setup_from_caps (GstCaps * incaps, const GstVideoInfo * in,
    const GstVideoInfo * out, GstClToneMapSetup * setup, gchar ** why)
{
  GstVideoColorimetry c;
  guint in_depth, out_depth;

  debug_init ();
  memset (setup, 0, sizeof (*setup));
  *why = NULL;
  if (!input_colorimetry (incaps, in, &c, why))
    return FALSE;
  setup->hdr = c.transfer == GST_VIDEO_TRANSFER_SMPTE2084 ||
      c.transfer == GST_VIDEO_TRANSFER_ARIB_STD_B67;
  if (!setup->hdr)
    return TRUE;
  if (format_kind (GST_VIDEO_INFO_FORMAT (out)) != format_kind
      (GST_VIDEO_INFO_FORMAT (in)) || GST_VIDEO_INFO_WIDTH (in) !=
      GST_VIDEO_INFO_WIDTH (out) || GST_VIDEO_INFO_HEIGHT (in) !=
      GST_VIDEO_INFO_HEIGHT (out)) {
    *why = g_strdup ("the output is not the input's 8-bit sibling or own "
        "format at the same size");
    return FALSE;
  }
  set_format (in, &setup->in_fmt);
  set_format (out, &setup->out_fmt);
  in_depth = setup->in_fmt.s[4];
  out_depth = setup->out_fmt.s[4];
  set_yuv (setup->cfg, GST_CL_TONEMAP_CFG_IN_KR, c.matrix, c.range, in_depth);
  set_yuv (setup->cfg, GST_CL_TONEMAP_CFG_OUT_KR,
      GST_VIDEO_COLOR_MATRIX_BT709, c.range, out_depth);
  set_reciprocals (setup->cfg);
  setup->cfg[GST_CL_TONEMAP_CFG_OUT_MAX] = (1u << out_depth) - 1;
  setup->cfg[GST_CL_TONEMAP_CFG_HLG] =
      c.transfer == GST_VIDEO_TRANSFER_ARIB_STD_B67;
  setup->cfg[GST_CL_TONEMAP_CFG_ALPHA] = (gdouble) ((1u << out_depth) - 1) /
      ((1u << in_depth) - 1);
  if (!set_gamut (setup->cfg, c.primaries)) {
    *why = g_strdup ("could not compute the gamut matrix");
    return FALSE;
  }
  setup->meta_peak = metadata_peak (incaps);
  set_luts (setup->lut, c.transfer == GST_VIDEO_TRANSFER_ARIB_STD_B67);
  GST_DEBUG ("HDR %s, %s primaries, %u to %u bits, metadata peak %g",
      c.transfer == GST_VIDEO_TRANSFER_SMPTE2084 ? "PQ" : "HLG",
      primaries_name (c.primaries), in_depth, out_depth,
      setup->meta_peak);
  return TRUE;
}

/**
 * gst_cl_tonemap_geometry:
 *
 * The planes' offsets and strides of @layout, as tonemap.cl takes them.
 */
void
gst_cl_tonemap_geometry (const GstVideoInfo * layout, cl_int8 * geo)
{
  guint p;

  memset (geo, 0, sizeof (*geo));
  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (layout) && p < 3; p++) {
    geo->s[p] = (cl_int) layout->offset[p];
    geo->s[3 + p] = GST_VIDEO_INFO_PLANE_STRIDE (layout, p);
  }
}
