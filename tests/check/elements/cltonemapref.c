/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* cltonemapref.c: the tests' double-precision reference of cltonemap, as
 * the interface note ("cltonemap") writes it: decode, PQ or HLG to nits,
 * the curve on max (R, G, B), BT.2020 to BT.709 (the matrix computed here
 * from the chromaticities), BT.1886, encode, 4:2:0 chroma as the block's
 * mean. The input matrix is BT.2020's, as in every test. */
#include "cltonemapref.h"

#include <math.h>


#define M1 (2610.0 / 16384.0)
#define M2 (2523.0 / 32.0)
#define C1 (3424.0 / 4096.0)
#define C2 (2413.0 / 128.0)
#define C3 (2392.0 / 128.0)

double
pq_eotf (double e)
{
  double p = pow (MAX (e, 0.0), 1.0 / M2);
  return 10000.0 * pow (MAX (p - C1, 0.0) / (C2 - C3 * p), 1.0 / M1);
}

double
pq_inv (double nits)
{
  double y = pow (MAX (nits, 0.0) / 10000.0, M1);
  return pow ((C1 + C2 * y) / (1.0 + C3 * y), M2);
}

static double
hlg_inv (double e)
{
  return e <= 0.5 ? e * e / 3.0 : (exp ((e - 0.55991073) / 0.17883277) +
      0.28466892) / 12.0;
}

static double
hable (double x)
{
  return (x * (0.15 * x + 0.05) + 0.004) / (x * (0.15 * x + 0.5) + 0.06) -
      1.0 / 15.0;
}

static double
ref_curve (gint curve, double s, double lw, double lt)
{
  double x = s / lt, w = lw / lt;

  if (lw <= lt || curve == 3)
    return MIN (s, lt);
  if (curve == 1)
    return lt * x * (1 + x / (w * w)) / (1 + x);
  if (curve == 2)
    return lt * hable (x) / hable (w);
  {
    double e1 = MIN (pq_inv (s) / pq_inv (lw), 1.0);
    double maxlum = pq_inv (lt) / pq_inv (lw), ks = 1.5 * maxlum - 0.5;
    double e2 = e1;
    if (e1 >= ks) {
      double t = (e1 - ks) / (1 - ks);
      e2 = (2 * t * t * t - 3 * t * t + 1) * ks + (t * t * t - 2 * t * t +
          t) * (1 - ks) + (-2 * t * t * t + 3 * t * t) * maxlum;
    }
    return pq_eotf (e2 * pq_inv (lw));
  }
}

/* RGB to XYZ from chromaticities (xy of R, G, B) and D65 */
static void
rgb_xyz (const double *p, double m[3][3])
{
  const double wx = 0.3127, wy = 0.3290;
  double a[3][3], inv[3][3], w[3] = { wx / wy, 1.0, (1 - wx - wy) / wy }, det;
  gint i, j;

  for (i = 0; i < 3; i++) {
    a[0][i] = p[2 * i] / p[2 * i + 1];
    a[1][i] = 1.0;
    a[2][i] = (1 - p[2 * i] - p[2 * i + 1]) / p[2 * i + 1];
  }
  det = a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) -
      a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
      a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
  for (i = 0; i < 3; i++)
    for (j = 0; j < 3; j++) {
      /* the cofactor of a[j][i] */
      gint r0 = (j + 1) % 3, r1 = (j + 2) % 3, c0 = (i + 1) % 3,
          c1 = (i + 2) % 3;
      inv[i][j] = (a[r0][c0] * a[r1][c1] - a[r0][c1] * a[r1][c0]) / det;
    }
  for (i = 0; i < 3; i++) {
    double s = inv[i][0] * w[0] + inv[i][1] * w[1] + inv[i][2] * w[2];
    for (j = 0; j < 3; j++)
      m[j][i] = a[j][i] * s;
  }
}

/* the linear BT.2020 to BT.709 matrix */
static void
gamut_matrix (double m[3][3])
{
  const double p2020[6] = { 0.708, 0.292, 0.170, 0.797, 0.131, 0.046 };
  const double p709[6] = { 0.640, 0.330, 0.300, 0.600, 0.150, 0.060 };
  double a[3][3], b[3][3], bi[3][3], det;
  gint i, j, k;

  rgb_xyz (p2020, a);
  rgb_xyz (p709, b);
  det = b[0][0] * (b[1][1] * b[2][2] - b[1][2] * b[2][1]) -
      b[0][1] * (b[1][0] * b[2][2] - b[1][2] * b[2][0]) +
      b[0][2] * (b[1][0] * b[2][1] - b[1][1] * b[2][0]);
  for (i = 0; i < 3; i++)
    for (j = 0; j < 3; j++) {
      gint r0 = (j + 1) % 3, r1 = (j + 2) % 3, c0 = (i + 1) % 3,
          c1 = (i + 2) % 3;
      bi[i][j] = (b[r0][c0] * b[r1][c1] - b[r0][c1] * b[r1][c0]) / det;
    }
  for (i = 0; i < 3; i++)
    for (j = 0; j < 3; j++)
      for (m[i][j] = 0, k = 0; k < 3; k++)
        m[i][j] += bi[i][k] * a[k][j];
}


/* The mapped input frame and its planes. */
typedef struct
{
  const Ref *r;
  GstVideoFrame vf;
  TestPlane p[3];
} In;

static void
in_map (In * in, const Ref * r, GstBuffer * buf, const GstVideoInfo * info)
{
  guint i;

  in->r = r;
  fail_unless (gst_video_frame_map (&in->vf, info, buf, GST_MAP_READ));
  for (i = 0; i < GST_VIDEO_FRAME_N_PLANES (&in->vf); i++)
    in->p[i] = test_plane (&in->vf, i);
}

/* R'G'B' of pixel (x, y), clamped to [0, 1] */
static TEST_REFERENCE void
ref_rgb_prime (const In * in, gint x, gint y, double e[3])
{
  const Ref *r = in->r;
  const double maxv = (1 << r->in_depth) - 1, u = (1 << r->in_depth) / 256.0;
  const double kr = 0.2627, kb = 0.0593;
  double yy, cb, cr, cy, cc;
  gint bx = x >> r->ssx, by = y >> r->ssy, i;

  if (r->kind == KIND_RGBA) {
    for (i = 0; i < 3; i++)
      e[i] = test_value (&in->p[0], x, y, i) / maxv;
    return;
  }
  yy = test_value (&in->p[0], x, y, 0);
  if (r->kind == KIND_SEMI) {
    cb = test_value (&in->p[1], bx, by, 0);
    cr = test_value (&in->p[1], bx, by, 1);
  } else {
    cb = test_value (&in->p[1], bx, by, 0);
    cr = test_value (&in->p[2], bx, by, 0);
  }
  cy = r->full ? 0 : 16 * u;
  yy = (yy - cy) / (r->full ? maxv : 219 * u);
  cc = r->full ? maxv : 224 * u;
  cb = (cb - 128 * u) / cc;
  cr = (cr - 128 * u) / cc;
  e[0] = yy + 2 * (1 - kr) * cr;
  e[2] = yy + 2 * (1 - kb) * cb;
  e[1] = (yy - kr * e[0] - kb * e[2]) / (1 - kr - kb);
  for (i = 0; i < 3; i++)
    e[i] = CLAMP (e[i], 0.0, 1.0);
}

/* linear light in nits of pixel (x, y) */
static TEST_REFERENCE void
ref_linear (const In * in, gint x, gint y, double l[3])
{
  double e[3], ys;
  gint i;

  ref_rgb_prime (in, x, y, e);
  for (i = 0; i < 3; i++)
    l[i] = in->r->hlg ? hlg_inv (e[i]) : pq_eotf (e[i]);
  if (!in->r->hlg)
    return;
  ys = 0.2627 * l[0] + 0.6780 * l[1] + 0.0593 * l[2];
  for (i = 0; i < 3; i++)
    l[i] = ys > 0 ? l[i] * in->r->hlg_peak * pow (ys, 0.2) : 0.0;
}

/* display R'G'B' in [0, 1] of pixel (x, y) for the source peak lw */
static TEST_REFERENCE void
ref_display (const In * in, gint x, gint y, double lw, double v[3])
{
  const Ref *r = in->r;
  double l[3], s, so, m[3][3], g[3];
  gint i;

  ref_linear (in, x, y, l);
  s = MAX (MAX (l[0], l[1]), l[2]);
  so = s > 0 ? ref_curve (r->curve, s, lw, r->lt) : 0.0;
  for (i = 0; i < 3; i++)
    l[i] = s > 0 ? l[i] * so / s : 0.0;
  gamut_matrix (m);
  for (i = 0; i < 3; i++)
    g[i] = r->bt709_primaries ? l[i] : m[i][0] * l[0] + m[i][1] * l[1] +
        m[i][2] * l[2];
  for (i = 0; i < 3; i++)
    v[i] = pow (CLAMP (g[i], 0.0, r->lt) / r->lt, 1 / 2.4);
}

/* The bin of PQ @v * 1024 moved by @nudge bins (the histogram's rule:
 * floor, at most the last bin). */
static gint
peak_bin (double v, double nudge)
{
  return CLAMP ((gint) floor (v * 1024 + nudge), 0, 1023);
}

/* The percentile bin of the frame's histogram with every pixel's PQ
 * (max (R, G, B)) moved by @nudge bins. */
static gint
frame_peak_bin (GstBuffer * buf, const GstVideoInfo * info, const Ref * r,
    double percentile, double nudge)
{
  guint64 hist[1024] = { 0 }, cum = 0, need, n;
  gint x, y, b;
  double l[3];
  In in;

  in_map (&in, r, buf, info);
  n = (guint64) GST_VIDEO_INFO_WIDTH (info) * GST_VIDEO_INFO_HEIGHT (info);
  for (y = 0; y < GST_VIDEO_INFO_HEIGHT (info); y++)
    for (x = 0; x < GST_VIDEO_INFO_WIDTH (info); x++) {
      ref_linear (&in, x, y, l);
      hist[peak_bin (pq_inv (MAX (MAX (l[0], l[1]), l[2])), nudge)]++;
    }
  gst_video_frame_unmap (&in.vf);
  need = (guint64) ceil (percentile / 100.0 * n);
  need = CLAMP (need, 1, n);
  for (b = 0; b < 1024; b++)
    if ((cum += hist[b]) >= need)
      break;
  return MIN (b, 1023);
}

/* The frame peak x (PQ) of the interface note: the smallest bin of the
 * 1024-bin histogram of PQ (max (R, G, B)) whose cumulative count reaches
 * @percentile % of the pixels, plus one, over 1024. */
TEST_REFERENCE double
ref_frame_peak (GstBuffer * buf, const GstVideoInfo * info, const Ref * r,
    double percentile)
{
  return (frame_peak_bin (buf, info, r, percentile, 0.0) + 1) / 1024.0;
}

/* Whether the frame peak hangs on a pixel within float rounding of a
 * bin's edge (PEAK_EDGE bins): a device's float arithmetic (the H200's
 * fused multiply-adds, its pow ()) may count such a pixel in the
 * neighbouring bin, and the exact bin of the note cannot be asked of it. */
#define PEAK_EDGE 2e-3

TEST_REFERENCE gboolean
ref_frame_peak_ambiguous (GstBuffer * buf, const GstVideoInfo * info,
    const Ref * r, double percentile)
{
  return frame_peak_bin (buf, info, r, percentile, -PEAK_EDGE) !=
      frame_peak_bin (buf, info, r, percentile, PEAK_EDGE);
}

void
expected_free (Expected * e)
{
  gint i;
  for (i = 0; i < e->n; i++)
    g_free (e->v[i]);
}

static gint
level (double v, double maxv)
{
  return (gint) CLAMP (floor (v + 0.5), 0, maxv);
}

/* one pixel's output: RGBA samples, or Y' and the chroma added to @c */
static TEST_REFERENCE void
ref_pixel_out (const In * in, Expected * e, gint x, gint y, double lw,
    double c[2])
{
  const Ref *r = in->r;
  const double omax = (1 << r->out_depth) - 1, u = (1 << r->out_depth) / 256.0;
  const double kr = 0.2126, kb = 0.0722;
  double v[3], yy;
  gint i;

  ref_display (in, x, y, lw, v);
  if (r->kind == KIND_RGBA) {
    gint *o = e->v[0] + (y * e->w[0] + x) * 4;
    for (i = 0; i < 3; i++)
      o[i] = level (v[i] * omax, omax);
    o[3] = level (test_value (&in->p[0], x, y, 3) * omax / 65535.0, omax);
    return;
  }
  yy = kr * v[0] + (1 - kr - kb) * v[1] + kb * v[2];
  e->v[0][y * e->w[0] + x] = level (r->full ? yy * omax : 16 * u + 219 * u *
      yy, omax);
  c[0] += (v[2] - yy) / (2 * (1 - kb));
  c[1] += (v[0] - yy) / (2 * (1 - kr));
}

TEST_REFERENCE Expected
ref_expected (GstBuffer * buf, const GstVideoInfo * info, const Ref * r,
    double lw)
{
  const gint w = GST_VIDEO_INFO_WIDTH (info), h = GST_VIDEO_INFO_HEIGHT (info);
  const gint cw = (w + (1 << r->ssx) - 1) >> r->ssx;
  const gint ch = (h + (1 << r->ssy) - 1) >> r->ssy;
  const double omax = (1 << r->out_depth) - 1, u = (1 << r->out_depth) / 256.0;
  Expected e = { {NULL,}, };
  gint bx, by, x, y, i;
  In in;

  e.n = r->kind == KIND_RGBA ? 1 : r->kind == KIND_SEMI ? 2 : 3;
  for (i = 0; i < e.n; i++) {
    e.w[i] = i == 0 ? w : cw;
    e.h[i] = i == 0 ? h : ch;
    e.step[i] = r->kind == KIND_RGBA ? 4 : (r->kind == KIND_SEMI && i) ? 2 : 1;
    e.v[i] = g_new0 (gint, e.w[i] * e.h[i] * e.step[i]);
  }
  in_map (&in, r, buf, info);
  for (by = 0; by < ch; by++)
    for (bx = 0; bx < cw; bx++) {
      double c[2] = { 0, 0 }, cc = r->full ? omax : 224 * u;
      gint n = 0;
      for (y = by << r->ssy; y < MIN ((by + 1) << r->ssy, h); y++)
        for (x = bx << r->ssx; x < MIN ((bx + 1) << r->ssx, w); x++, n++)
          ref_pixel_out (&in, &e, x, y, lw, c);
      if (r->kind == KIND_RGBA)
        continue;
      for (i = 0; i < 2; i++) {
        gint lv = level (128 * u + cc * c[i] / n, omax);
        if (r->kind == KIND_SEMI)
          e.v[1][(by * cw + bx) * 2 + i] = lv;
        else
          e.v[1 + i][by * cw + bx] = lv;
      }
    }
  gst_video_frame_unmap (&in.vf);
  return e;
}

/* Compares @buf with @e: each value within @tol, bits outside a value
 * zero (P010_10LE keeps its low 6 bits zero). Returns the mismatches. */
guint
compare_expected (const Expected * e, GstBuffer * buf,
    const GstVideoInfo * info, gint tol, const gchar * what)
{
  GstVideoFrame vf;
  guint bad = 0;
  gint i, x, y, c;

  fail_unless (gst_video_frame_map (&vf, info, buf, GST_MAP_READ));
  for (i = 0; i < e->n; i++) {
    TestPlane p = test_plane (&vf, i);
    for (y = 0; y < e->h[i]; y++)
      for (x = 0; x < e->w[i]; x++)
        for (c = 0; c < e->step[i]; c++) {
          gint want = e->v[i][(y * e->w[i] + x) * e->step[i] + c];
          guint word = test_word (&p, x, y, c);
          gint got = test_value (&p, x, y, c);
          if (ABS (got - want) <= tol && (word >> p.shift) == (guint) got)
            continue;
          if (bad++ < 5)
            GST_ERROR ("%s: plane %d (%d,%d) sample %d: got %d (word 0x%x), "
                "want %d +- %d", what, i, x, y, c, got, word, want, tol);
        }
  }
  gst_video_frame_unmap (&vf);
  return bad;
}
