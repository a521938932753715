/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* cltonemapref.h: the tests' reference of cltonemap (cltonemapref.c): the
 * interface note's formulas in double precision, written out
 * independently of the element's own math and kernels. */
#pragma once

#include "clcheck.h"

enum
{
  KIND_SEMI,
  KIND_PLANAR,
  KIND_RGBA,
};

/* What the reference needs of the caps and the settings. */
typedef struct
{
  gint kind, in_depth, out_depth, ssx, ssy;
  gboolean hlg, full, bt709_primaries;
  gint curve;
  double lt, hlg_peak;
} Ref;

/* The expected output: the sample values of each plane. */
typedef struct
{
  gint *v[3];
  gint w[3], h[3], step[3], n;
} Expected;

double pq_eotf (double e);
double pq_inv (double nits);

/* The frame peak x (PQ) of the frame in @buf (layout @info). */
gboolean ref_frame_peak_ambiguous (GstBuffer * buf,
    const GstVideoInfo * info, const Ref * r, double percentile);
double ref_frame_peak (GstBuffer * buf, const GstVideoInfo * info,
    const Ref * r, double percentile);

/* The expected output of the frame in @buf for the source peak @lw. */
Expected ref_expected (GstBuffer * buf, const GstVideoInfo * info,
    const Ref * r, double lw);

void expected_free (Expected * e);

/* Compares @buf (layout @info) with @e: each value within @tol, bits
 * outside a value zero. Returns the mismatches (the first ones logged). */
guint compare_expected (const Expected * e, GstBuffer * buf,
    const GstVideoInfo * info, gint tol, const gchar * what);
