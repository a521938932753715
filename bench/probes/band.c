/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* band: times kernels/gaussian_band.cl (clgaussian's GPU kernel for
 * radius > 1 on 8-bit buffers) at radius 7 as the plugin builds it and with
 * build variants (PROBE_VARIANTS, ';'-separated extra build options, e.g.
 * "-DGST_CL_WEIGHTS=40,36,30,20,12,6,3,1;-DPROBE_MAGIC"), at 4K and 8K
 * GRAY8 and RGBA, against clEnqueueCopyBuffer and a copy kernel, hot and
 * with frames rotating through more than the L2 holds. Every output is
 * checked against a C reference ("bad": samples that differ). PROBE_PTX=DIR
 * writes each build's program binary there (NVIDIA: PTX; `ptxas
 * -arch=sm_90` and `cuobjdump -sass` of the CUDA toolkit turn it into
 * SASS), PROBE_LOG=1 prints NVIDIA's register counts. Not built by meson;
 * from the project root:
 *
 *     cc -O2 -o /tmp/band bench/probes/band.c -lOpenCL -lm
 *     /tmp/band .
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
  const char *dir = argc > 1 ? argv[1] : ".";
  char *band = slurp_at (dir, "kernels/gaussian_band.cl");
  char *copy = slurp_at (dir, "bench/probes/radius.cl");
  cl_mem wtm = clCreateBuffer (ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
      sizeof wt, wt, NULL);
  char wopt[128];
  snprintf (wopt, sizeof wopt, "-DGST_CL_WEIGHTS=%d,%d,%d,%d,%d,%d,%d,%d",
      wt[0], wt[1], wt[2], wt[3], wt[4], wt[5], wt[6], wt[7]);
  printf ("weights %s\n", wopt);
  char vbuf[2048] = "";
  snprintf (vbuf, sizeof vbuf, "%s", getenv ("PROBE_VARIANTS") ?
      getenv ("PROBE_VARIANTS") : "");
  /* the first: as the element builds it without dot products (its weights
   * and alpha byte as constants of the build) */
  char plugin[256];
  snprintf (plugin, sizeof plugin, "%s +A", wopt);
  const char *variants[16] = { plugin };
  int nv = 1;
  for (char *t = strtok (vbuf, ";"); t && nv < 16; t = strtok (NULL, ";"))
    variants[nv++] = t;
  int groups[] = { 128, 64, 256 };
  int ngroups = getenv ("PROBE_GROUPS") ? 3 : 1;
  int nrep = getenv ("PROBE_REPS") ? atoi (getenv ("PROBE_REPS")) : 30;

  struct { const char *n; int w, h, step, alpha; } cases[] = {
    {"4K GRAY8", 3840, 2160, 1, -1}, {"4K RGBA", 3840, 2160, 4, 3},
    {"8K GRAY8", 7680, 4320, 1, -1}, {"8K RGBA", 7680, 4320, 4, 3},
  };
  int ncases = getenv ("PROBE_CASES") ? atoi (getenv ("PROBE_CASES")) : 4;
  for (int ci = 0; ci < ncases; ci++) {
    int units = cases[ci].w * cases[ci].step, h = cases[ci].h;
    int step = cases[ci].step, alpha = cases[ci].alpha;
    frames_new ((size_t) units * h);
    frames_random (ci + 1);
    frames_upload ();
    reference (units, h, step, alpha);
    printf ("\n== %s (%.1f MB, %d cold pairs)\n", cases[ci].n, fsize / 1e6, nb_cold);
    double best_hot, best_cold, hot, cold;
    {
      const char *s[] = { copy };
      cl_program pc = build (s, 1, "-cl-std=CL1.2 -DR=1 -DSTEP=1 -DW=4");
      cl_kernel kc = clCreateKernel (pc, "copy16", NULL);
      time_copies (kc, &best_hot, &best_cold);
      clReleaseKernel (kc);
      clReleaseProgram (pc);
    }
    /* two rounds, variants alternated */
    for (int round = 0; round < 2; round++)
      for (int vi = 0; vi < nv; vi++) {
        const char *v = variants[vi];
        char opts[1024];
        /* one block a band: the kernel's BAND_ROWS (kernel files before
         * 7f55d92 had 8 for every pixel size: add -DPROBE_BAND_ROWS=8) */
        int rows = step == 4 ? (strstr (v, "GST_CL_DOT") ? 12 : 16) : 8;
        const char *br = strstr (v, "PROBE_BAND_ROWS=");
        if (br)
          rows = atoi (br + strlen ("PROBE_BAND_ROWS="));
        snprintf (opts, sizeof opts,
            "-cl-std=CL1.2 -DGST_CL_RADIUS=%d -DGST_CL_STEP=%d %s %s",
            RADIUS, step, getenv ("PROBE_LOG") ? "-cl-nv-verbose" : "", v);
        /* "+A" in a variant: -DGST_CL_ALPHA= the case's alpha byte */
        char vx[512];
        snprintf (vx, sizeof vx, "%s", v);
        char *plus = strstr (vx, "+A");
        if (plus) {
          char tail[512];
          snprintf (tail, sizeof tail, "%s", plus + 2);
          snprintf (plus, sizeof vx - (plus - vx), "-DGST_CL_ALPHA=%d%s",
              alpha, tail);
        }
        snprintf (opts, sizeof opts,
            "-cl-std=CL1.2 -DGST_CL_RADIUS=%d -DGST_CL_STEP=%d %s %s",
            RADIUS, step, getenv ("PROBE_LOG") ? "-cl-nv-verbose" : "", vx);
        v = vx;
        /* "@FILE options": the kernel from FILE (under the root) */
        char *src = band;
        if (v[0] == '@') {
          char file[512];
          snprintf (file, sizeof file, "%s", v + 1);
          char *sp = strchr (file, ' ');
          if (sp)
            *sp = 0;
          src = slurp_at (dir, file);
          snprintf (opts, sizeof opts,
              "-cl-std=CL1.2 -DGST_CL_RADIUS=%d -DGST_CL_STEP=%d %s %s",
              RADIUS, step, getenv ("PROBE_LOG") ? "-cl-nv-verbose" : "",
              strchr (v, ' ') ? strchr (v, ' ') : "");
        }
        const char *s[] = { src };
        cl_program p = build (s, 1, opts);
        if (src != band)
          free (src);
        cl_kernel k = clCreateKernel (p, "gaussian_band", NULL);
        if (round == 0 && getenv ("PROBE_PTX")) {
          /* NVIDIA's program binary is its PTX */
          size_t n = 0;
          clGetProgramInfo (p, CL_PROGRAM_BINARY_SIZES, sizeof n, &n, NULL);
          unsigned char *bin = malloc (n);
          clGetProgramInfo (p, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL);
          char path[512];
          snprintf (path, sizeof path, "%s/band-%d-v%d.ptx",
              getenv ("PROBE_PTX"), ci, vi);
          FILE *f = fopen (path, "wb");
          if (f) {
            while (n && !bin[n - 1])   /* the driver's terminating NULs */
              n--;
            fwrite (bin, 1, n, f);
            fclose (f);
          }
          free (bin);
        }
        if (round == 0 && getenv ("PROBE_LOG")) {
          static char log[65536];
          clGetProgramBuildInfo (p, dev, CL_PROGRAM_BUILD_LOG, sizeof log,
              log, NULL);
          for (char *l = strtok (log, "\n"); l; l = strtok (NULL, "\n"))
            if (strstr (l, "Used") || strstr (l, "spill"))
              printf ("  %s: %s\n", vi ? v : "(plugin)", l);
        }
        int halo_items = step == 4 ? (RADIUS + 3) / 4 * 4
            : (RADIUS * step + 3) / 4;
        for (int gi = 0; gi < ngroups; gi++) {
          int G = groups[gi];
          /* GST_CL_DOT: 16-bit sums, half the local memory */
          size_t lbytes = (size_t) G * rows * (strstr (v, "GST_CL_DOT") ? 8
              : 16);
          if (lbytes >= 48 * 1024)
            continue;
          int out_bytes = G * 4 - 2 * halo_items * 4;
          set_band_args (k, units, h, alpha, rows, wtm);
          clSetKernelArg (k, 9, lbytes, NULL);
          Launch L = { k, {0, 0}, {G, 1}, 0, 2 };
          L.g[0] = (size_t) ((units + out_bytes - 1) / out_bytes) * G;
          L.g[1] = (h + rows - 1) / rows;
          clear_dst ();
          timeit_n (&L, 0, &hot, &cold, nrep, 3);
          printf ("r%d G %3d %-44s hot %.4f ms (%3.0f%%) cold %.4f ms (%3.0f%%) bad %ld\n",
              round, G, vi ? v : "(plugin)", hot, 100 * best_hot / hot, cold,
              100 * best_cold / cold, check ());
        }
        clReleaseKernel (k);
        clReleaseProgram (p);
      }
    frames_free ();
    fflush (stdout);
  }
  return 0;
}
