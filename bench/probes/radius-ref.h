/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* radius-ref.h: what the radius probes (radius.c, band.c) share: OpenCV's
 * sigma for 2 RADIUS + 1 taps in Q8 weights, rounded as gstclgaussian.c
 * rounds them (wt, and wf as floats), and the C reference of the blur of
 * `in` into `ref` (probe.h), replicated borders, an alpha byte copied.
 * Define RADIUS before including it. */
#ifndef RADIUS_REF_H
#define RADIUS_REF_H

#include <math.h>

static unsigned short wt[RADIUS + 1];
static float wf[RADIUS + 1];

static void
weights (void)
{
  double k[2 * RADIUS + 1], total = 0, s = 0.3 * (RADIUS - 1) + 0.8, err = 0;
  int sum = 0;
  for (int i = 0; i <= 2 * RADIUS; i++) {
    double x = i - RADIUS;
    k[i] = exp (-0.5 * x * x / (s * s));
    total += k[i];
  }
  for (int i = 0; i < RADIUS; i++) {
    double v = k[i] / total * 256 + err, qv = rint (v);
    err = v - qv;
    wt[RADIUS - i] = (unsigned short) qv;
    sum += (int) qv;
  }
  wt[0] = 256 - 2 * sum;
  for (int i = 0; i <= RADIUS; i++)
    wf[i] = wt[i];
}

static void
reference (int units, int h, int step, int alpha)
{
  unsigned *v = malloc (sizeof (unsigned) * units);
  int width = units / step;
  for (int y = 0; y < h; y++) {
    for (int x = 0; x < units; x++) {
      unsigned acc = 0;
      for (int j = -RADIUS; j <= RADIUS; j++) {
        int yy = y + j < 0 ? 0 : y + j >= h ? h - 1 : y + j;
        acc += in[(size_t) yy * units + x] * wt[abs (j)];
      }
      v[x] = acc;
    }
    for (int x = 0; x < units; x++) {
      int px = x / step, comp = x % step;
      unsigned acc = 0;
      for (int i = -RADIUS; i <= RADIUS; i++) {
        int p = px + i < 0 ? 0 : px + i >= width ? width - 1 : px + i;
        acc += v[p * step + comp] * wt[abs (i)];
      }
      ref[(size_t) y * units + x] = (alpha >= 0 && comp == alpha) ?
          in[(size_t) y * units + x] : (unsigned char) ((acc + 32768) >> 16);
    }
  }
  free (v);
}

/* Arguments 1 and 3 to 8 of the band and ring kernels (radius.cl,
 * kernels/gaussian_band.cl): strides, units, height, alpha byte, rows a
 * band, the Q8 weights */
static void
set_band_args (cl_kernel k, int units, int h, int alpha, int rows, cl_mem wtm)
{
  cl_int a_ss = units, a_units = units, a_h = h, a_alpha = alpha,
      a_rows = rows;
  clSetKernelArg (k, 1, 4, &a_ss);
  clSetKernelArg (k, 3, 4, &a_ss);
  clSetKernelArg (k, 4, 4, &a_units);
  clSetKernelArg (k, 5, 4, &a_h);
  clSetKernelArg (k, 6, 4, &a_alpha);
  clSetKernelArg (k, 7, 4, &a_rows);
  clSetKernelArg (k, 8, sizeof (cl_mem), &wtm);
}

#endif
