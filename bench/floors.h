/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* floors.h: what moving one frame costs at best on a device and on the host,
 * measured in the benchmark's own run (chainbench, streambench). */
#pragma once

#include <glib.h>

typedef struct
{
  gdouble up, down, serial, overlapped;  /* pinned transfers, ms a frame */
  gdouble memcpy_ms;            /* host memcpy of a frame, one thread */
  gdouble memcpy_threads_ms;    /* the same over @threads threads */
  guint threads;
} BenchFloors;

/* Pinned transfers of @size bytes on the first device of the kind @want
 * names ("cpu", or a GPU otherwise): upload alone, download alone, both one
 * after the other on one queue, and both at once on two queues (what a
 * pipeline reaches with the directions overlapped); and a host memcpy, by
 * one thread and by as many as the plugin copies with (the cores, at most
 * 8), from a ring of 4 frames (the source not in cache, as a producer's).
 * Transfer floors are -1 where there is no such device. */
void bench_floors (const gchar * want, gsize size, BenchFloors * f);
