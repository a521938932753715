/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclshared.h: the constants that the elements (C) and their kernels
 * (OpenCL C) must agree on, defined once. The C files include it; every
 * program is built with it before its source (gstclprogram.c). Plain
 * #defines only, which both languages read. */
#ifndef GST_CL_SHARED_H
#define GST_CL_SHARED_H

/* clgaussian: the largest radius (the kernels size their private arrays
 * of taps and row offsets by it) */
#define GST_CL_GAUSSIAN_MAX_RADIUS 64

/* cllaplace: the kernels' `mode` argument */
#define GST_CL_LAPLACE_SHARPEN 0
#define GST_CL_LAPLACE_EDGES 1

/* cllaplace: strength 1 in the kernels' fixed point, Q14 for 8-bit
 * samples, Q18 for more bits (kernels/laplace.cl says why) */
#define GST_CL_LAPLACE_Q14_ONE 16384
#define GST_CL_LAPLACE_Q18_ONE 262144

/* cltonemap (tonemap.cl, gst/elements/gstcltonemap.c): bins of the
 * histogram of PQ (max (R, G, B)), the curves' numbers, the frame kinds
 * the kernels read and write, and where the caps-time constants (cfg) and
 * the per-frame curve parameters (params, written on the device) sit in
 * their float arrays */
#define GST_CL_TONEMAP_BINS 1024
#define GST_CL_TONEMAP_GROUP 256
#define GST_CL_TONEMAP_CURVE_BT2390 0
#define GST_CL_TONEMAP_CURVE_REINHARD 1
#define GST_CL_TONEMAP_CURVE_HABLE 2
#define GST_CL_TONEMAP_CURVE_CLIP 3
#define GST_CL_TONEMAP_KIND_SEMI 0     /* Y plane, CbCr pairs (P010_10LE) */
#define GST_CL_TONEMAP_KIND_PLANAR 1   /* Y, Cb and Cr planes (I420_10LE) */
#define GST_CL_TONEMAP_KIND_RGBA 2     /* packed R'G'B'A (RGBA64_LE) */
#define GST_CL_TONEMAP_CFG_IN_KR 0
#define GST_CL_TONEMAP_CFG_IN_KB 1
#define GST_CL_TONEMAP_CFG_IN_YOFF 2
#define GST_CL_TONEMAP_CFG_IN_YSCALE 3
#define GST_CL_TONEMAP_CFG_IN_COFF 4
#define GST_CL_TONEMAP_CFG_IN_CSCALE 5
#define GST_CL_TONEMAP_CFG_OUT_KR 6
#define GST_CL_TONEMAP_CFG_OUT_KB 7
#define GST_CL_TONEMAP_CFG_OUT_YOFF 8
#define GST_CL_TONEMAP_CFG_OUT_YSCALE 9
#define GST_CL_TONEMAP_CFG_OUT_COFF 10
#define GST_CL_TONEMAP_CFG_OUT_CSCALE 11
#define GST_CL_TONEMAP_CFG_OUT_MAX 12
#define GST_CL_TONEMAP_CFG_HLG 13
#define GST_CL_TONEMAP_CFG_GAMUT 14
#define GST_CL_TONEMAP_CFG_MATRIX 15   /* 9 floats, row by row */
#define GST_CL_TONEMAP_CFG_ALPHA 24    /* output alpha per input level */
#define GST_CL_TONEMAP_CFG_IN_YINV 25  /* 1 / IN_YSCALE */
#define GST_CL_TONEMAP_CFG_IN_CINV 26  /* 1 / IN_CSCALE */
#define GST_CL_TONEMAP_CFG_IN_GINV 27  /* 1 / (1 - IN_KR - IN_KB) */
#define GST_CL_TONEMAP_CFG_OUT_CBINV 28        /* 1 / (2 (1 - OUT_KB)) */
#define GST_CL_TONEMAP_CFG_OUT_CRINV 29        /* 1 / (2 (1 - OUT_KR)) */
#define GST_CL_TONEMAP_CFG_SIZE 32
#define GST_CL_TONEMAP_PAR_LW 0
#define GST_CL_TONEMAP_PAR_PQ_LW 1
#define GST_CL_TONEMAP_PAR_MAXLUM 2
#define GST_CL_TONEMAP_PAR_KS 3
#define GST_CL_TONEMAP_PAR_HW 4
#define GST_CL_TONEMAP_PAR_LT 5
#define GST_CL_TONEMAP_PAR_HLG_PEAK 6
#define GST_CL_TONEMAP_PAR_CURVE 7
#define GST_CL_TONEMAP_PAR_RECORD 8    /* x, p (PQ), Lw (nits), scene cut */
#define GST_CL_TONEMAP_PAR_SIZE 16
#define GST_CL_TONEMAP_STATE_SIZE 8    /* p of the last frame, valid; Lw,
                                         * Lt and curve of the gain table,
                                         * valid */
/* the tables' intervals: the input signal to light (PQ's EOTF or HLG's
 * inverse OETF) over [0, 1], BT.1886's inverse over sqrt (L / Lt) in
 * [0, 1] (caps time), and the frame's curve as a gain over PQ (s) in
 * [0, 1] (tonemap_curve); each GST_CL_TONEMAP_LUT pairs of floats, the
 * value at knot i of GST_CL_TONEMAP_LUT + 1 and the step to knot i + 1,
 * interpolated linearly; after them PQ's EOTF in nits at the
 * GST_CL_TONEMAP_LUT + 1 knots of the gain table (tonemap_curve's s) */
#define GST_CL_TONEMAP_LUT 4096
/* where the knots' nits start in the table buffer, in floats */
#define GST_CL_TONEMAP_PQ_KNOTS (4 * GST_CL_TONEMAP_LUT)

#endif
