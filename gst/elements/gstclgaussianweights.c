/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstclgaussianweights.c: the weights of clgaussian's blur, as OpenCV's
 * getGaussianKernel computes them, in Q8 for 8-bit samples and in float
 * for more. Plain C without a device, so that tests/check/libs/
 * gaussianweights.c checks them directly. */
#include "gstclgaussianweights.h"

#include <math.h>
#include <string.h>

/* OpenCV's fixed kernels for ksize 3, 5 and 7 when sigma is not given */
static const gdouble small_kernels[3][7] = {
  {0.25, 0.5, 0.25},
  {0.0625, 0.25, 0.375, 0.25, 0.0625},
  {0.03125, 0.109375, 0.21875, 0.28125, 0.21875, 0.109375, 0.03125},
};

/**
 * gst_cl_gaussian_weights_kernel:
 * @radius: the radius asked for (0: from @sigma, or 1 without it)
 * @sigma: the standard deviation in pixels (0: from the radius)
 * @k: (out caller-allocates): the 2r+1 taps, in double
 *
 * OpenCV's 1-D kernel of getGaussianKernel (2r+1, sigma): its fixed kernels
 * for radius 1 to 3 without @sigma, else the sampled Gaussian normalised to
 * sum 1, with OpenCV's sigma for the ksize where @sigma is 0. A radius of 0
 * becomes ceil (3 @sigma), or 1 without @sigma; any radius is capped at
 * %GST_CL_GAUSSIAN_MAX_RADIUS.
 *
 * Returns: the radius of @k
 */
guint
gst_cl_gaussian_weights_kernel (guint radius, gdouble sigma,
    gdouble k[2 * GST_CL_GAUSSIAN_MAX_RADIUS + 1])
{
  gdouble total = 0.0;
  guint n, i;

  if (radius == 0)
    radius = sigma > 0 ? (guint) MIN (ceil (3.0 * sigma),
        GST_CL_GAUSSIAN_MAX_RADIUS) : 1;
  radius = MIN (radius, GST_CL_GAUSSIAN_MAX_RADIUS);
  n = 2 * radius + 1;

  if (sigma <= 0 && radius <= 3) {
    memcpy (k, small_kernels[radius - 1], n * sizeof (gdouble));
  } else {
    gdouble s = sigma > 0 ? sigma : 0.3 * ((n - 1) * 0.5 - 1) + 0.8;
    gdouble scale = -0.5 / (s * s);
    for (i = 0; i < n; i++) {
      gdouble x = (gdouble) i - radius;
      k[i] = exp (scale * x * x);
      total += k[i];
    }
    for (i = 0; i < n; i++)
      k[i] /= total;
  }
  return radius;
}

/**
 * gst_cl_gaussian_weights_q8:
 * @radius: the radius asked for (see gst_cl_gaussian_weights_kernel())
 * @sigma: the standard deviation in pixels (0: from the radius)
 * @weights: (out caller-allocates): the Q8 weights, centre first; those
 *   beyond the radius are 0
 *
 * The weights of the blur for 8-bit samples, as OpenCV rounds them for
 * 8-bit images: the double kernel in Q8, rounded with error diffusion from
 * the outer taps inwards, the centre taking what is left, so that the
 * weights sum to exactly 256 (a flat image stays flat).
 *
 * Returns: the radius
 */
guint
gst_cl_gaussian_weights_q8 (guint radius, gdouble sigma,
    guint16 weights[GST_CL_GAUSSIAN_MAX_RADIUS + 1])
{
  gdouble k[2 * GST_CL_GAUSSIAN_MAX_RADIUS + 1], err = 0.0;
  guint i;
  gint sum = 0;

  radius = gst_cl_gaussian_weights_kernel (radius, sigma, k);
  for (i = 0; i < radius; i++) {
    gdouble v = k[i] * 256.0 + err;
    gdouble q = rint (v);
    err = v - q;
    weights[radius - i] = (guint16) q;
    sum += (gint) q;
  }
  weights[0] = (guint16) (256 - 2 * sum);
  for (i = radius + 1; i <= GST_CL_GAUSSIAN_MAX_RADIUS; i++)
    weights[i] = 0;
  return radius;
}

/**
 * gst_cl_gaussian_weights_q8_is_binomial:
 * @radius: the radius of @weights
 * @weights: Q8 weights, centre first
 *
 * Returns: whether @weights are the binomial [64 128 64], which the exact
 * 3x3 kernels compute rather than those of a radius
 */
gboolean
gst_cl_gaussian_weights_q8_is_binomial (guint radius,
    const guint16 * weights)
{
  return radius == 1 && weights[0] == 128 && weights[1] == 64;
}

/**
 * gst_cl_gaussian_weights_float:
 * @radius: the radius asked for (see gst_cl_gaussian_weights_kernel())
 * @sigma: the standard deviation in pixels (0: from the radius)
 * @weights: (out caller-allocates): the weights, centre first; those beyond
 *   the radius are 0
 * @binomial: (out) (optional): whether the double kernel is exactly
 *   [1 2 1] / 4
 *
 * The weights for samples of more than 8 bits: the double kernel rounded to
 * float. Q8 weights would put a 16-bit result up to 65535 times their error
 * (hundreds of levels) off the double-precision result; float weights and
 * sums stay well within one level of it. Only where @binomial is set is the
 * exact integer 3x3 the double-precision result.
 *
 * Returns: the radius
 */
guint
gst_cl_gaussian_weights_float (guint radius, gdouble sigma,
    gfloat weights[GST_CL_GAUSSIAN_MAX_RADIUS + 1], gboolean * binomial)
{
  gdouble k[2 * GST_CL_GAUSSIAN_MAX_RADIUS + 1];
  guint i;

  radius = gst_cl_gaussian_weights_kernel (radius, sigma, k);
  for (i = 0; i <= GST_CL_GAUSSIAN_MAX_RADIUS; i++)
    weights[i] = i <= radius ? (gfloat) k[radius + i] : 0.0f;
  if (binomial)
    *binomial = radius == 1 && k[1] == 0.5 && k[0] == 0.25 && k[2] == 0.25;
  return radius;
}
