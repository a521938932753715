/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* radius: the probe behind clgaussian's GPU kernel for radius > 1 on 8-bit
 * buffers. It times, in one run on the first GPU (else any device),
 * clEnqueueCopyBuffer and a copy kernel, the plugin's gaussian_buffer_tile
 * (kernels/gaussian.cl) and the candidate of radius.cl (compile-time
 * radius, a register ring of rows) over work-group widths, rows per group
 * and bytes per work-item, at 4K and 8K GRAY8 and RGBA, radius 7 (OpenCV's
 * sigma for 15 taps), with frames hot in cache and rotating through more
 * than L2 holds. Every output is checked against a C reference ("bad":
 * samples that differ). Not built by meson; from the project root:
 *
 *     cc -O2 -o /tmp/radius bench/probes/radius.c -lOpenCL -lm
 *     /tmp/radius .            # PROBE_CASES=1: 4K GRAY8 only
 */
#include "probe.h"
#include <math.h>

#define RADIUS 7
#include "radius-ref.h"

int
main (int argc, char **argv)
{
  open_device ();
  weights ();
  printf ("weights");
  for (int i = 0; i <= RADIUS; i++) printf (" %d", wt[i]);
  printf ("\n");

  const char *dir = argc > 1 ? argv[1] : ".";
  char *common = slurp_at (dir, "kernels/common.cl");
  char *gauss = slurp_at (dir, "kernels/gaussian.cl");
  char *probe = slurp_at (dir, "bench/probes/radius.cl");
  const char *s1[] = { common, gauss };
  cl_program preal = build (s1, 2, "-cl-std=CL1.2");
  cl_kernel ktile = clCreateKernel (preal, "gaussian_buffer_tile", NULL);
  cl_mem wtm = clCreateBuffer (ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
      sizeof wt, wt, NULL);
  cl_mem wfm = clCreateBuffer (ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
      sizeof wf, wf, NULL);

  struct { const char *n; int w, h, step, alpha; } cases[] = {
    {"4K GRAY8", 3840, 2160, 1, -1}, {"4K RGBA", 3840, 2160, 4, 3},
    {"8K GRAY8", 7680, 4320, 1, -1}, {"8K RGBA", 7680, 4320, 4, 3},
  };
  int ncases = getenv ("PROBE_CASES") ? atoi (getenv ("PROBE_CASES")) : 4;
  int first = getenv ("PROBE_FIRST") ? atoi (getenv ("PROBE_FIRST")) : 0;
  for (int ci = first; ci < ncases; ci++) {
    int units = cases[ci].w * cases[ci].step, h = cases[ci].h;
    int step = cases[ci].step, alpha = cases[ci].alpha;
    frames_new ((size_t) units * h);
    frames_random (ci + 1);
    frames_upload ();
    reference (units, h, step, alpha);
    printf ("\n== %s (%.1f MB, %d cold pairs)\n", cases[ci].n, fsize / 1e6, nb_cold);
    double hot, cold;
    Launch L;
    timeit_n (&L, 1, &hot, &cold, 20, 2);
    printf ("%-30s hot %.4f ms  cold %.4f ms\n", "clEnqueueCopyBuffer", hot, cold);
    double best_hot = hot, best_cold = cold;
    {
      const char *s2[] = { probe };
      cl_program pc = build (s2, 1, "-cl-std=CL1.2 -DR=1 -DSTEP=1 -DW=4");
      L.k = clCreateKernel (pc, "copy16", NULL); L.src_arg = 0; L.dst_arg = 1;
      L.g[0] = fsize / 16; L.g[1] = 1; L.l[0] = 256; L.l[1] = 1;
      timeit_n (&L, 0, &hot, &cold, 20, 2);
      printf ("%-30s hot %.4f ms  cold %.4f ms\n", "copy16", hot, cold);
      if (hot < best_hot) best_hot = hot;
      if (cold < best_cold) best_cold = cold;
      clReleaseKernel (L.k);
      clReleaseProgram (pc);
    }
    printf ("best copy: hot %.4f cold %.4f ms\n", best_hot, best_cold);

    /* the plugin's tile kernel, as gstclgaussian.c launches it */
    int trows[] = { 8, 16 };
    int tgroups[] = { 64, 128 };
    for (int ri = 0; ri < 2; ri++)
      for (int gi = 0; gi < 2; gi++) {
        cl_int a_ss = units, a_units = units, a_h = h, a_step = step,
            a_alpha = alpha, a_rows = trows[ri], a_r = RADIUS;
        cl_int halo = (RADIUS * step + 3) / 4 * 4;
        size_t group = tgroups[gi], tw = 4 * group + 2 * halo;
        size_t in_bytes = ((trows[ri] + 2 * RADIUS) * tw + 15) / 16 * 16;
        size_t vs_bytes = trows[ri] * tw * 2;
        clSetKernelArg (ktile, 1, 4, &a_ss);
        clSetKernelArg (ktile, 3, 4, &a_ss);
        clSetKernelArg (ktile, 4, 4, &a_units);
        clSetKernelArg (ktile, 5, 4, &a_h);
        clSetKernelArg (ktile, 6, 4, &a_step);
        clSetKernelArg (ktile, 7, 4, &a_alpha);
        clSetKernelArg (ktile, 8, 4, &a_rows);
        clSetKernelArg (ktile, 9, sizeof (cl_mem), &wtm);
        clSetKernelArg (ktile, 10, 4, &a_r);
        clSetKernelArg (ktile, 11, 4, &halo);
        clSetKernelArg (ktile, 12, in_bytes, NULL);
        clSetKernelArg (ktile, 13, vs_bytes, NULL);
        L.k = ktile; L.src_arg = 0; L.dst_arg = 2;
        L.l[0] = group; L.l[1] = 1;
        L.g[0] = (units + 4 * group - 1) / (4 * group) * group;
        L.g[1] = (h + trows[ri] - 1) / trows[ri];
        clear_dst ();
        timeit_n (&L, 0, &hot, &cold, 20, 2);
        printf ("tile  G %3zu rows %2d              hot %.4f ms (%3.0f%%)  cold %.4f ms (%3.0f%%) bad %ld\n",
            group, trows[ri], hot, 100 * best_hot / hot, cold, 100 * best_cold / cold, check ());
      }

    /* the ring */
    int wv[] = { 4, 8 };
    int gv[] = { 64, 128, 256 };
    int rv[] = { 8, 16, 32, 64 };
    int nsh = getenv ("PROBE_SHIFT") ? 1 : 2;
    if (getenv ("PROBE_NORING")) nsh = 0;
    int sh0 = getenv ("PROBE_SHIFT") ? atoi (getenv ("PROBE_SHIFT")) : 0;
    int nrv = getenv ("PROBE_FAST") ? 1 : 4;
    for (int shi = sh0; shi < sh0 + nsh; shi++)
    for (int wi = 0; wi < 2; wi++) {
      char opts[128];
      snprintf (opts, sizeof opts, "-cl-std=CL1.2 -DR=%d -DSTEP=%d -DW=%d -DSHIFT=%d",
          RADIUS, step, wv[wi], shi);
      const char *s2[] = { probe };
      cl_program pr = build (s2, 1, opts);
      cl_kernel kr = clCreateKernel (pr, "ring", NULL);
      int W = wv[wi], halo = (RADIUS * step + W - 1) / W * W;
      for (int gi = 0; gi < 3; gi++)
        for (int ri = 4 - nrv; ri < 4; ri++) {
          int G = gv[gi], rows = rv[ri];
          int out_bytes = G * W - 2 * halo;
          set_band_args (kr, units, h, alpha, rows, wtm);
          clSetKernelArg (kr, 9, sizeof (cl_mem), &wfm);
          clSetKernelArg (kr, 10, 2 * G * W * sizeof (float), NULL);
          L.k = kr; L.src_arg = 0; L.dst_arg = 2;
          L.l[0] = G; L.l[1] = 1;
          L.g[0] = (size_t) ((units + out_bytes - 1) / out_bytes) * G;
          L.g[1] = (h + rows - 1) / rows;
          clear_dst ();
          timeit_n (&L, 0, &hot, &cold, 20, 2);
          printf ("ring%d W %d G %3d rows %2d         hot %.4f ms (%3.0f%%)  cold %.4f ms (%3.0f%%) bad %ld\n",
              shi, W, G, rows, hot, 100 * best_hot / hot, cold, 100 * best_cold / cold, check ());
        }
      clReleaseKernel (kr);
      clReleaseProgram (pr);
    }
    /* the band of BR rows */
    {
      int bw[] = { 4, 8 }, bbr[] = { 4, 8, 16 }, bg[] = { 64, 128 }, brows[] = { 16, 32, 64 };
      for (int wi = 0; wi < 2; wi++)
        for (int bi = 0; bi < 3; bi++) {
          char opts[128];
          snprintf (opts, sizeof opts, "-cl-std=CL1.2 -DR=%d -DSTEP=%d -DW=%d -DBR=%d",
              RADIUS, step, bw[wi], bbr[bi]);
          const char *s2[] = { probe };
          cl_program pr = build (s2, 1, opts);
          cl_kernel kr = clCreateKernel (pr, "block", NULL);
          int W = bw[wi], halo = (RADIUS * step + W - 1) / W * W;
          for (int gi = 0; gi < 2; gi++)
            for (int ri = 0; ri < (getenv ("PROBE_FAST") ? 1 : 3); ri++) {
              int G = bg[gi], rows = brows[ri];
              if ((size_t) bbr[bi] * G * bw[wi] * 4 > 48 * 1024)
                continue;
              int out_bytes = G * W - 2 * halo;
              set_band_args (kr, units, h, alpha, rows, wtm);
              clSetKernelArg (kr, 9, sizeof (cl_mem), &wfm);
              clSetKernelArg (kr, 10, bbr[bi] * G * W * sizeof (float), NULL);
              L.k = kr; L.src_arg = 0; L.dst_arg = 2;
              L.l[0] = G; L.l[1] = 1;
              L.g[0] = (size_t) ((units + out_bytes - 1) / out_bytes) * G;
              L.g[1] = (h + rows - 1) / rows;
              clear_dst ();
              timeit_n (&L, 0, &hot, &cold, 20, 2);
              printf ("block W %d BR %d G %3d rows %2d    hot %.4f ms (%3.0f%%)  cold %.4f ms (%3.0f%%) bad %ld\n",
                  W, bbr[bi], G, rows, hot, 100 * best_hot / hot, cold, 100 * best_cold / cold, check ());
            }
          clReleaseKernel (kr);
          clReleaseProgram (pr);
        }
    }
    frames_free ();
    fflush (stdout);
  }
  return 0;
}
