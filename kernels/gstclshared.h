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

#endif
