/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gstcltunestore.c: the on-disk store of measured kernel tunings (format
 * and rules in gstcltunestore.h). Measuring takes seconds per case, so the
 * tuner keeps its results per device; all that is read back is checked, as
 * the file may be stale, truncated or edited by hand. In memory a store is
 * a GKeyFile of the valid entries of its device's file. */
#include "gstcltunestore.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

GST_DEBUG_CATEGORY_STATIC (gst_cl_tune_store_debug);
#define GST_CAT_DEFAULT gst_cl_tune_store_debug

#define STORE_GROUP "store"
#define CASE_PREFIX "case "
#define VERSION 1
#define N_IDS 5
#define MAX_WORK_GROUP_SIZE 1024
#define MAX_ROWS_PER_ITEM 4096
#define MAX_PIXELS_PER_ITEM 65536

static const gchar *const id_keys[N_IDS] = {
  "device-name", "device-version", "driver-version", "platform-name",
  "platform-version"
};

struct _GstClTuneStore
{
  GMutex lock;
  gchar *dir, *path;
  gchar *ids[N_IDS + 1];        /* valid UTF-8, NULL-terminated */
  GKeyFile *kf;                 /* the valid entries */
  gboolean trusted;             /* the directory was private at open */
};

/* serializes the read-modify-write of saves within the process */
static GMutex save_lock;

static void
debug_init (void)
{
  static gsize done = 0;
  if (g_once_init_enter (&done)) {
    GST_DEBUG_CATEGORY_INIT (gst_cl_tune_store_debug, "cltunestore", 0,
        "clfilters store of measured tunings");
    g_once_init_leave (&done, 1);
  }
}

static gboolean
case_key_valid (const gchar * key)
{
  const gchar *p;
  if (!key || !*key)
    return FALSE;
  for (p = key; *p; p++)
    if (!g_ascii_isprint (*p) || *p == '[' || *p == ']')
      return FALSE;
  return TRUE;
}

/**
 * gst_cl_tune_store_dir:
 *
 * Returns: (transfer full): $XDG_CACHE_HOME/clfilters, XDG_CACHE_HOME read
 * now (g_get_user_cache_dir() when unset or not absolute)
 */
gchar *
gst_cl_tune_store_dir (void)
{
  const gchar *cache = g_getenv ("XDG_CACHE_HOME");
  if (!cache || !g_path_is_absolute (cache))
    cache = g_get_user_cache_dir ();
  return g_build_filename (cache, "clfilters", NULL);
}

/* Whether @dir is private, making it so when it is ours (and creating it
 * when @create). A missing directory is trusted when not @create. */
static gboolean
dir_trusted (const gchar * dir, gboolean create, GError ** error)
{
  GStatBuf st;
  const gchar *why = NULL;
  int err = 0;

  if (create && g_mkdir_with_parents (dir, 0700) != 0)
    err = errno;
  else if (g_stat (dir, &st) != 0)
    err = errno;
  else if (!S_ISDIR (st.st_mode))
    why = "is not a directory";
  else if (st.st_uid != getuid ())
    why = "is not owned by the current user";
  else if ((st.st_mode & 022) && g_chmod (dir, 0700) != 0)
    why = "is writable by others and cannot be made private";
  else if (st.st_mode & 022)
    GST_INFO ("made the tuning store %s private (mode 0700)", dir);
  if (err == ENOENT && !create)
    return TRUE;
  if (err)
    why = g_strerror (err);
  if (!why)
    return TRUE;
  GST_WARNING ("not using the tuning store %s: it %s%s", dir,
      err ? "cannot be opened: " : "", why);
  g_set_error (error, GST_CL_ERROR, GST_CL_ERROR_FAILED,
      "The tuning store %s %s%s", dir, err ? "cannot be opened: " : "", why);
  return FALSE;
}

static gboolean
get_uint (GKeyFile * kf, const gchar * group, const gchar * key, guint max,
    guint * out)
{
  gchar *s = g_key_file_get_value (kf, group, key, NULL);
  guint64 v = 0;
  gboolean ok = s && g_ascii_string_to_unsigned (s, 10, 0, max, &v, NULL);
  g_free (s);
  *out = v;
  return ok;
}

static gboolean
get_ms (GKeyFile * kf, const gchar * group, const gchar * key, gdouble * out)
{
  GError *err = NULL;
  *out = g_key_file_get_double (kf, group, key, &err);
  if (err) {
    g_error_free (err);
    return FALSE;
  }
  return isfinite (*out) && *out > 0;
}

static gboolean
entry_valid (const GstClTuneEntry * e)
{
  return (guint) e->tuning.shape <= GST_CL_KERNEL_SHAPE_TILES &&
      e->tuning.work_group_size <= MAX_WORK_GROUP_SIZE &&
      e->tuning.rows_per_item <= MAX_ROWS_PER_ITEM &&
      e->tuning.pixels_per_item <= MAX_PIXELS_PER_ITEM &&
      isfinite (e->tuned_ms) && e->tuned_ms > 0 &&
      isfinite (e->default_ms) && e->default_ms > 0;
}

/* Reads the entry of @group into @entry and its source into @source (both
 * optional); FALSE when a key is missing or out of range. */
static gboolean
get_entry (GKeyFile * kf, const gchar * group, GstClTuneEntry * entry,
    gchar ** source)
{
  GEnumClass *klass = g_type_class_ref (GST_TYPE_CL_KERNEL_SHAPE);
  gchar *src = g_key_file_get_string (kf, group, "source", NULL);
  gchar *nick = g_key_file_get_string (kf, group, "shape", NULL);
  GEnumValue *shape = nick ? g_enum_get_value_by_nick (klass, nick) : NULL;
  GstClTuneEntry e = { {0,}, 0, 0 };
  gboolean ok;

  ok = src && *src && shape &&
      get_uint (kf, group, "work-group-size", MAX_WORK_GROUP_SIZE,
      &e.tuning.work_group_size) &&
      get_uint (kf, group, "rows-per-item", MAX_ROWS_PER_ITEM,
      &e.tuning.rows_per_item) &&
      get_uint (kf, group, "pixels-per-item", MAX_PIXELS_PER_ITEM,
      &e.tuning.pixels_per_item) &&
      get_ms (kf, group, "tuned-ms", &e.tuned_ms) &&
      get_ms (kf, group, "default-ms", &e.default_ms);
  if (ok) {
    e.tuning.shape = shape->value;
    if (entry)
      *entry = e;
    if (source)
      *source = g_steal_pointer (&src);
  }
  g_free (src);
  g_free (nick);
  g_type_class_unref (klass);
  return ok;
}

static void
set_entry (GKeyFile * kf, const gchar * group, const gchar * source,
    const GstClTuneEntry * e)
{
  GEnumClass *klass = g_type_class_ref (GST_TYPE_CL_KERNEL_SHAPE);

  g_key_file_set_string (kf, group, "source", source);
  g_key_file_set_string (kf, group, "shape",
      g_enum_get_value (klass, e->tuning.shape)->value_nick);
  g_key_file_set_uint64 (kf, group, "work-group-size",
      e->tuning.work_group_size);
  g_key_file_set_uint64 (kf, group, "rows-per-item", e->tuning.rows_per_item);
  g_key_file_set_uint64 (kf, group, "pixels-per-item",
      e->tuning.pixels_per_item);
  g_key_file_set_double (kf, group, "tuned-ms", e->tuned_ms);
  g_key_file_set_double (kf, group, "default-ms", e->default_ms);
  g_type_class_unref (klass);
}

/* Why @file is not a store of @self's device (newly allocated), or NULL. */
static gchar *
stale (GstClTuneStore * self, GKeyFile * file)
{
  gchar *v = g_key_file_get_value (file, STORE_GROUP, "version", NULL);
  gchar *why = NULL;
  guint i;

  if (g_strcmp0 (v, G_STRINGIFY (VERSION)) != 0)
    why = g_strdup_printf ("version %s, not " G_STRINGIFY (VERSION),
        v ? v : "missing");
  for (i = 0; i < N_IDS && !why; i++) {
    gchar *s = g_key_file_get_string (file, STORE_GROUP, id_keys[i], NULL);
    if (g_strcmp0 (s, self->ids[i]) != 0)
      why = g_strdup_printf ("stale: %s \"%s\", not \"%s\"", id_keys[i],
          s ? s : "(missing)", self->ids[i]);
    g_free (s);
  }
  g_free (v);
  return why;
}

/* The valid content of @self's file: its valid entries when the file is
 * of this version and device, else none. */
static GKeyFile *
load (GstClTuneStore * self)
{
  GKeyFile *out = g_key_file_new (), *file = g_key_file_new ();
  GError *err = NULL;
  gchar **groups = NULL, *why;
  guint i;

  g_key_file_set_integer (out, STORE_GROUP, "version", VERSION);
  for (i = 0; i < N_IDS; i++)
    g_key_file_set_string (out, STORE_GROUP, id_keys[i], self->ids[i]);

  if (!g_key_file_load_from_file (file, self->path, G_KEY_FILE_NONE, &err)) {
    if (g_error_matches (err, G_FILE_ERROR, G_FILE_ERROR_NOENT))
      GST_INFO ("no tuning store %s yet", self->path);
    else
      GST_WARNING ("ignoring the tuning store %s: %s", self->path,
          err->message);
    g_error_free (err);
  } else if ((why = stale (self, file))) {
    GST_INFO ("ignoring the tuning store %s: %s", self->path, why);
    g_free (why);
  } else {
    groups = g_key_file_get_groups (file, NULL);
  }
  for (i = 0; groups && groups[i]; i++) {
    GstClTuneEntry e;
    gchar *source = NULL;

    if (g_str_equal (groups[i], STORE_GROUP))
      continue;
    if (g_str_has_prefix (groups[i], CASE_PREFIX) &&
        case_key_valid (groups[i] + strlen (CASE_PREFIX)) &&
        get_entry (file, groups[i], &e, &source))
      set_entry (out, groups[i], source, &e);
    else
      GST_WARNING ("%s: ignoring the invalid group [%s]", self->path,
          groups[i]);
    g_free (source);
  }
  g_strfreev (groups);
  g_key_file_free (file);
  return out;
}

/**
 * gst_cl_tune_store_open:
 *
 * Loads the store of the device @id from gst_cl_tune_store_dir(); a missing,
 * stale or unreadable file, or a directory that is not private, gives an
 * empty store.
 *
 * Returns: (transfer full): the store, never NULL
 */
GstClTuneStore *
gst_cl_tune_store_open (const GstClTuneStoreId * id)
{
  GstClTuneStore *self;
  const gchar *ids[N_IDS];
  gchar *joined, *sum, *name, *file;
  guint i;

  g_return_val_if_fail (id != NULL, NULL);
  debug_init ();
  ids[0] = id->device_name;
  ids[1] = id->device_version;
  ids[2] = id->driver_version;
  ids[3] = id->platform_name;
  ids[4] = id->platform_version;
  self = g_new0 (GstClTuneStore, 1);
  g_mutex_init (&self->lock);
  for (i = 0; i < N_IDS; i++)
    self->ids[i] = g_utf8_make_valid (ids[i] ? ids[i] : "", -1);
  joined = g_strjoinv ("\n", self->ids);
  sum = g_compute_checksum_for_string (G_CHECKSUM_SHA256, joined, -1);
  name = g_strndup (self->ids[0], 40);
  for (i = 0; name[i]; i++)
    if (!g_ascii_isalnum (name[i]) && name[i] != '-')
      name[i] = '-';
  file = g_strdup_printf ("%s-%.16s.ini", name, sum);
  self->dir = gst_cl_tune_store_dir ();
  self->path = g_build_filename (self->dir, file, NULL);
  self->trusted = dir_trusted (self->dir, FALSE, NULL);
  self->kf = self->trusted ? load (self) : g_key_file_new ();
  GST_DEBUG ("tuning store %s (%strusted)", self->path,
      self->trusted ? "" : "not ");
  g_free (joined);
  g_free (sum);
  g_free (name);
  g_free (file);
  return self;
}

/**
 * gst_cl_tune_store_lookup:
 * @source_sum: the checksum of the kernel sources the tuning is for
 * @entry: (out) (optional): the entry found
 *
 * Returns: whether the store holds @case_key measured with @source_sum
 */
gboolean
gst_cl_tune_store_lookup (GstClTuneStore * store, const gchar * case_key,
    const gchar * source_sum, GstClTuneEntry * entry)
{
  gchar *group, *source = NULL;
  gboolean found;

  g_return_val_if_fail (store != NULL, FALSE);
  g_return_val_if_fail (case_key_valid (case_key), FALSE);
  g_return_val_if_fail (source_sum != NULL, FALSE);

  group = g_strconcat (CASE_PREFIX, case_key, NULL);
  g_mutex_lock (&store->lock);
  found = store->trusted && get_entry (store->kf, group, entry, &source) &&
      g_str_equal (source, source_sum);
  g_mutex_unlock (&store->lock);
  if (source && !found)
    GST_INFO ("[%s]: measured for other kernel sources", group);
  g_free (source);
  g_free (group);
  return found;
}

/**
 * gst_cl_tune_store_save:
 * @source_sum: the checksum of the kernel sources @entry was measured with
 *
 * Sets @case_key to @entry in the file, which is re-read first (keeping
 * its valid entries) and written whole, atomically, and in @store.
 *
 * Returns: FALSE with @error set when @entry is out of range, the
 * directory is not private or the file cannot be written
 */
gboolean
gst_cl_tune_store_save (GstClTuneStore * store, const gchar * case_key,
    const gchar * source_sum, const GstClTuneEntry * entry, GError ** error)
{
  GKeyFile *kf = NULL;
  GError *err = NULL;
  gchar *group, *data;
  gsize len;
  gboolean ok;

  g_return_val_if_fail (store != NULL, FALSE);
  g_return_val_if_fail (case_key_valid (case_key), FALSE);
  g_return_val_if_fail (source_sum != NULL && *source_sum, FALSE);
  g_return_val_if_fail (entry != NULL, FALSE);

  if (!entry_valid (entry)) {
    g_set_error (error, GST_CL_ERROR, GST_CL_ERROR_FAILED,
        "Tuning of %s out of range", case_key);
    return FALSE;
  }
  group = g_strconcat (CASE_PREFIX, case_key, NULL);
  g_mutex_lock (&save_lock);
  ok = dir_trusted (store->dir, TRUE, error);
  if (ok) {
    kf = load (store);
    set_entry (kf, group, source_sum, entry);
    data = g_key_file_to_data (kf, &len, NULL);
    ok = g_file_set_contents_full (store->path, data, len,
        G_FILE_SET_CONTENTS_CONSISTENT, 0600, &err);
    g_free (data);
  }
  if (ok) {
    g_mutex_lock (&store->lock);
    g_key_file_free (store->kf);
    store->kf = g_steal_pointer (&kf);
    store->trusted = TRUE;
    g_mutex_unlock (&store->lock);
    GST_DEBUG ("saved [%s] in %s", group, store->path);
  } else if (err) {
    GST_WARNING ("cannot write %s: %s", store->path, err->message);
    g_set_error (error, GST_CL_ERROR, GST_CL_ERROR_FAILED, "%s",
        err->message);
    g_error_free (err);
  }
  g_mutex_unlock (&save_lock);
  if (kf)
    g_key_file_free (kf);
  g_free (group);
  return ok;
}

/**
 * gst_cl_tune_store_path:
 *
 * Returns: (transfer full): the file of @store
 */
gchar *
gst_cl_tune_store_path (GstClTuneStore * store)
{
  g_return_val_if_fail (store != NULL, NULL);
  return g_strdup (store->path);
}

void
gst_cl_tune_store_free (GstClTuneStore * store)
{
  guint i;

  if (!store)
    return;
  g_mutex_clear (&store->lock);
  for (i = 0; i < N_IDS; i++)
    g_free (store->ids[i]);
  g_free (store->dir);
  g_free (store->path);
  g_key_file_free (store->kf);
  g_free (store);
}
