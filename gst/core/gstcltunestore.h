/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstcltunestore.h: an on-disk store of measured kernel tunings, so that a
 * tuning measured once on a device is found again by later processes
 * instead of being measured at each start.
 *
 * One file per device in gst_cl_tune_store_dir() ($XDG_CACHE_HOME/clfilters,
 * read from the environment at each call). Its name is the device name
 * reduced to [A-Za-z0-9-] (other characters become '-', at most 40 of them),
 * "-", the first 16 hex digits of the SHA-256 of the five id strings joined
 * with '\n', and ".ini". It is a GKeyFile: a group [store] with version=1
 * and the five id strings (device-name, device-version, driver-version,
 * platform-name, platform-version), and one group [case <case_key>] per
 * case with the keys source (the kernel-source checksum), shape (a nick of
 * GstClKernelShape), work-group-size, rows-per-item, pixels-per-item,
 * tuned-ms and default-ms. Case keys are non-empty printable ASCII strings
 * without '[' or ']' (GKeyFile group names), e.g.
 * "clgaussian radius=1 sigma=0 RGBA 1920x1080 buffer".
 *
 * The directory is private: it is created with mode 0700, and made 0700
 * when it is ours but writable by its group or others. If it is not a
 * directory, not owned by the current user, or cannot be made private, the
 * store is not trusted: lookups find nothing and saves fail, with a
 * GST_WARNING that says why.
 *
 * Loading never fails and never trusts bad data: a missing file is an
 * empty store; an unparsable file, another version or other id strings (a
 * stale file: copied or renamed, since another driver or device version
 * hashes to another name) make the store empty, and the next save
 * rewrites the file. Files of former drivers are left in place. Within a good file an entry is ignored when
 * a key is missing or out of range (shape a known nick, work-group-size
 * 0..1024, rows-per-item 0..4096, pixels-per-item 0..65536, times finite
 * and > 0); a lookup finds an entry only when its source is the one asked
 * (else the kernels changed since it was measured).
 *
 * A save re-reads the file under a process-wide lock (another process may
 * have added cases), drops invalid entries, sets the case and writes the
 * whole file atomically (write and rename) with mode 0600; on success the
 * store in memory becomes that content, so a later lookup finds the entry.
 * A store may be used from several threads. */
#pragma once

#include "gstclkernel.h"

G_BEGIN_DECLS

/* What a store is keyed by: the device and the software that runs the
 * kernels. NULL strings count as "". */
typedef struct
{
  const gchar *device_name;     /* CL_DEVICE_NAME */
  const gchar *device_version;  /* CL_DEVICE_VERSION */
  const gchar *driver_version;  /* CL_DRIVER_VERSION */
  const gchar *platform_name;   /* CL_PLATFORM_NAME */
  const gchar *platform_version;        /* CL_PLATFORM_VERSION */
} GstClTuneStoreId;

typedef struct _GstClTuneStore GstClTuneStore;

/* One measured case. */
typedef struct
{
  GstClDecomposition tuning;           /* the chosen tuning (0 fields = automatic) */
  gdouble tuned_ms;             /* its measured time */
  gdouble default_ms;           /* the defaults' measured time */
} GstClTuneEntry;

gchar *gst_cl_tune_store_dir (void);

GstClTuneStore *gst_cl_tune_store_open (const GstClTuneStoreId * id);

gboolean gst_cl_tune_store_lookup (GstClTuneStore * store,
    const gchar * case_key, const gchar * source_sum, GstClTuneEntry * entry);

gboolean gst_cl_tune_store_save (GstClTuneStore * store,
    const gchar * case_key, const gchar * source_sum,
    const GstClTuneEntry * entry, GError ** error);

gchar *gst_cl_tune_store_path (GstClTuneStore * store);

void gst_cl_tune_store_free (GstClTuneStore * store);

G_END_DECLS
