/* SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING) */
/* gst-cl-tune: tunes the kernels of the clfilters elements for an OpenCL
 * device ahead of time, and prints what it chose against the defaults.
 *
 * An element measures its case (settings, format, size) when a pipeline
 * first needs it, delaying the first frame by up to 2 s (docs/tuning.md).
 * This runs a one-frame pipeline per case beforehand with GST_CL_TUNE=force
 * and reports each "clfilters-tuning" message; with --sweep (=sweep) the
 * elements also time every candidate: how close the search came to the
 * best. */
#include <gst/gst.h>
#include <gst/video/video.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

GST_DEBUG_CATEGORY_STATIC (gst_cl_tune_debug);
#define GST_CAT_DEFAULT gst_cl_tune_debug

/* the longest wait for a pipeline's next message: the tuning (at most a
 * few seconds), or with --sweep every candidate of both shapes (a radius-7
 * blur of 4K RGBA in tiles on a 2-core CPU alone takes minutes) */
#define CASE_TIMEOUT (120 * GST_SECOND)
#define SWEEP_TIMEOUT (1800 * GST_SECOND)
/* the elements do not tune smaller frames (GST_CL_TUNER_MIN_PIXELS) */
#define MIN_PIXELS (256 * 256)
/* a choice this close to the sweep's best counts as found */
#define CLOSE_ENOUGH 1.05

/* The names --elements takes, and the elements with their settings */
static const gchar *element_specs[][2] = {
  {"clgaussian", "clgaussian"}, {"clgaussian-r7", "clgaussian radius=7"},
  {"cllaplace", "cllaplace"}, {"clhistogram", "clhistogram"},
};

/* The table's columns: the last five only with --sweep. A negative width
 * aligns the column left (words), a positive one right (numbers). */
static const struct
{
  const gchar *title;
  gint width;
} columns[] = {
  {"element", -13}, {"format", -6}, {"size", -9}, {"chosen", -39},
  {"tuned ms", 9}, {"defaults ms", 11}, {"speed-up", 8}, {"candidates", 10},
  {"elapsed ms", 10}, {"sweep best", -39}, {"best ms", 9},
  {"chosen ms", 9}, {"chosen/best", 11}, {"defaults/best", 13},
};

#define N_PLAIN_COLUMNS 9
#define N_COLUMNS(t) ((t)->sweep ? G_N_ELEMENTS (columns) : N_PLAIN_COLUMNS)

/* The options, and what the run found */
typedef struct
{
  gchar *device;
  gboolean sweep, markdown, keep;
  gchar *device_name;
  const gchar *default_shape;   /* "strips" on CPU devices, else "tiles" */
  GString *table;
  guint failed, swept, close;
  gdouble worst;
  gchar *worst_case;
} Tune;

/* The element (and settings) of @name in --elements, NULL if unknown */
static const gchar *
find_spec (const gchar * name)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (element_specs); i++)
    if (g_str_equal (name, element_specs[i][0]))
      return element_specs[i][1];
  return NULL;
}

/* "strips rows=8 pixels=auto group=auto": the work decomposition in a
 * message or sweep candidate (0: the default); NULL if a field is missing.
 * Equal decompositions have equal descriptions. */
static gchar *
describe (const GstStructure * s)
{
  static const gchar *fields[] = { "rows-per-item", "pixels-per-item",
    "work-group-size"
  };
  const gchar *shape = gst_structure_get_string (s, "kernel-shape");
  gchar v[3][16];
  guint i, n;

  for (i = 0; i < 3; i++) {
    if (!gst_structure_get_uint (s, fields[i], &n))
      return NULL;
    if (n)
      g_snprintf (v[i], sizeof (v[i]), "%u", n);
    else
      g_strlcpy (v[i], "auto", sizeof (v[i]));
  }
  return shape ? g_strdup_printf ("%s rows=%s pixels=%s group=%s", shape,
      v[0], v[1], v[2]) : NULL;
}

/* Appends cell @c of the table's current row (@text taken; NULL: "-"),
 * and ends the row after the last column. */
static void
cell (Tune * t, guint c, gchar * text)
{
  if (t->markdown)
    g_string_append_printf (t->table, "| %s ", text ? text : "-");
  else
    g_string_append_printf (t->table, "%s%*s", c ? "  " : "",
        columns[c].width, text ? text : "-");
  if (c + 1 == N_COLUMNS (t))
    g_string_append (t->table, t->markdown ? "|\n" : "\n");
  g_free (text);
}

/* @v with @digits decimals; NULL ("-") unless positive */
static gchar *
number (gdouble v, gint digits)
{
  return v > 0 ? g_strdup_printf ("%.*f", digits, v) : NULL;
}

/* Adds the row of case @name (element, format, size) from its message @s,
 * or with @status ("stored", "failed") in place of the figures. In the
 * sweep, finds the best candidate, the chosen one and the defaults (all
 * fields 0 in the device's default shape). FALSE if @s is malformed. */
static gboolean
add_row (Tune * t, gchar ** name, const GstStructure * s,
    const gchar * status)
{
  gdouble tuned, def, elapsed, ms, best_ms = 0, chosen_ms = 0, def_ms = 0;
  const GValue *sweep = s ? gst_structure_get_value (s, "sweep") : NULL;
  gchar *v[G_N_ELEMENTS (columns)] = { NULL, }, *defaults, *d;
  guint candidates, c, i;

  v[3] = s ? describe (s) : g_strdup (status);
  if (s && (!v[3] || !gst_structure_get (s, "tuned-ms", G_TYPE_DOUBLE,
              &tuned, "default-ms", G_TYPE_DOUBLE, &def, "candidates",
              G_TYPE_UINT, &candidates, "elapsed-ms", G_TYPE_DOUBLE,
              &elapsed, NULL))) {
    g_free (v[3]);
    return FALSE;
  }
  for (c = 0; c < 3; c++)
    v[c] = g_strdup (name[c]);
  if (s) {
    v[4] = number (tuned, 4);
    v[5] = number (def, 4);
    v[6] = number (def / tuned, 2);
    v[7] = g_strdup_printf ("%u", candidates);
    v[8] = number (elapsed, 0);
  }
  if (t->sweep && sweep && GST_VALUE_HOLDS_ARRAY (sweep)) {
    defaults = g_strdup_printf ("%s rows=auto pixels=auto group=auto",
        t->default_shape ? t->default_shape : "?");
    for (i = 0; i < gst_value_array_get_size (sweep); i++) {
      const GValue *cv = gst_value_array_get_value (sweep, i);
      const GstStructure *cand = GST_VALUE_HOLDS_STRUCTURE (cv) ?
          gst_value_get_structure (cv) : NULL;

      /* a negative time: the candidate cannot run on this device */
      d = cand ? describe (cand) : NULL;
      if (d && gst_structure_get_double (cand, "ms", &ms) && ms > 0) {
        if (best_ms <= 0 || ms < best_ms) {
          g_free (v[9]);
          v[9] = g_strdup (d);
          best_ms = ms;
        }
        if (g_str_equal (d, v[3]))
          chosen_ms = ms;
        if (g_str_equal (d, defaults))
          def_ms = ms;
      }
      g_free (d);
    }
    g_free (defaults);
    v[13] = number (def_ms / best_ms, 2);
    /* the choice against the sweep's best measured head to head, in
     * alternation (the sweep's minimum alone is biased low by the noise) */
    if (gst_structure_get_double (s, "recheck-chosen-ms", &ms) && ms > 0 &&
        gst_structure_get_double (s, "recheck-best-ms", &best_ms)) {
      chosen_ms = ms;
      best_ms = MIN (best_ms, chosen_ms);
    }
    v[10] = number (best_ms, 4);
    v[11] = number (chosen_ms, 4);
    v[12] = number (chosen_ms / best_ms, 2);

    /* a choice missing from the sweep counts as the worst */
    ms = chosen_ms > 0 ? chosen_ms / best_ms : INFINITY;
    t->swept++;
    t->close += ms <= CLOSE_ENOUGH;
    if (ms > t->worst) {
      t->worst = ms;
      g_free (t->worst_case);
      t->worst_case = g_strjoinv (" ", name);
    }
  }
  for (c = 0; c < N_COLUMNS (t); c++)
    cell (t, c, v[c]);
  return TRUE;
}

/* The default kernel shape of the device @element uses: strips on CPUs,
 * tiles elsewhere; from the "gst.cl.device" context with which the element
 * answers CONTEXT queries (gstclcontext.h). NULL if it did not answer. */
static const gchar *
default_shape (GstElement * element)
{
  GstQuery *query = gst_query_new_context ("gst.cl.device");
  GstPad *pad = gst_element_get_static_pad (element, "src");
  GstContext *context = NULL;
  const gchar *shape = NULL;

  if (gst_pad_query (pad, query))
    gst_query_parse_context (query, &context);
  if (context)
    shape = g_strcmp0 (gst_structure_get_string (gst_context_get_structure
            (context), "device-type"), "cpu") ? "tiles" : "strips";
  gst_query_unref (query);
  gst_object_unref (pad);
  return shape;
}

/* Handles one message of case @name's pipeline: keeps the element's
 * "clfilters-tuning" structure in *@tuning, notes its warnings; TRUE when
 * the case is over (EOS: *@ok set; ERROR: @error set). */
static gboolean
case_message (GstMessage * msg, GstElement * el, gchar ** name,
    GstStructure ** tuning, gboolean * warned, gboolean * ok, GError ** error)
{
  GError *err = NULL;
  gchar *dbg = NULL;
  gboolean over = FALSE;

  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ELEMENT
      && GST_MESSAGE_SRC (msg) == GST_OBJECT (el)
      && gst_message_has_name (msg, "clfilters-tuning")) {
    g_clear_pointer (tuning, gst_structure_free);
    *tuning = gst_structure_copy (gst_message_get_structure (msg));
    GST_DEBUG ("%" GST_PTR_FORMAT, *tuning);
  } else if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_WARNING) {
    /* the element warns when it cannot measure */
    *warned |= GST_MESSAGE_SRC (msg) == GST_OBJECT (el);
    gst_message_parse_warning (msg, &err, &dbg);
    g_printerr ("gst-cl-tune: %s %s %s: warning: %s (%s)\n", name[0],
        name[1], name[2], err->message, dbg ? dbg : "");
  } else if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    gst_message_parse_error (msg, &err, &dbg);
    g_set_error (error, err->domain, err->code, "%s (%s)", err->message,
        dbg ? dbg : "");
    over = TRUE;
  } else if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS) {
    over = *ok = TRUE;
  }
  g_clear_error (&err);
  g_free (dbg);
  return over;
}

/* The one-frame pipeline of case @name, its tuned element in *@el */
static GstElement *
case_pipeline (Tune * t, gchar ** name, GstElement ** el, GError ** error)
{
  guint w = 0, h = 0;
  GstElement *pipeline;
  gchar *desc;

  sscanf (name[2], "%ux%u", &w, &h);
  desc = g_strdup_printf ("videotestsrc num-buffers=1 pattern=snow ! "
      "video/x-raw,format=%s,width=%u,height=%u ! %s name=tuned ! "
      "fakesink", name[1], w, h, find_spec (name[0]));
  pipeline = gst_parse_launch_full (desc, NULL, GST_PARSE_FLAG_FATAL_ERRORS,
      error);
  g_free (desc);
  if (!pipeline)
    return NULL;
  *el = gst_bin_get_by_name (GST_BIN (pipeline), "tuned");
  if (t->device)
    g_object_set (*el, "device", t->device, NULL);
  return pipeline;
}

/* Runs the one-frame pipeline of case @name to EOS or ERROR and adds its
 * row, from the element's "clfilters-tuning" message. */
static gboolean
run_case (Tune * t, gchar ** name, GError ** error)
{
  GstElement *pipeline, *el = NULL;
  GstStructure *tuning = NULL;
  gboolean done = FALSE, ok = FALSE, warned = FALSE;
  GstClockTime timeout = t->sweep ? SWEEP_TIMEOUT : CASE_TIMEOUT;
  GstBus *bus;

  if (!(pipeline = case_pipeline (t, name, &el, error)))
    return FALSE;
  bus = gst_element_get_bus (pipeline);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  while (!done) {
    GstMessage *msg = gst_bus_timed_pop_filtered (bus, timeout,
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR | GST_MESSAGE_WARNING |
        GST_MESSAGE_ELEMENT);
    if (!msg) {
      g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_FAILED,
          "no EOS within %u s", (guint) (timeout / GST_SECOND));
      break;
    }
    done = case_message (msg, el, name, &tuning, &warned, &ok, error);
    gst_message_unref (msg);
  }

  /* asked before stopping: the element holds its device until then */
  if (!t->device_name || !*t->device_name) {
    g_free (t->device_name);
    g_object_get (el, "device-name", &t->device_name, NULL);
  }
  if (ok && !t->default_shape)
    t->default_shape = default_shape (el);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (el);
  gst_object_unref (pipeline);

  /* a stored case posts no message; a forced one measures or warns */
  if (ok && !tuning && (!t->keep || warned)) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_FAILED,
        "the element measured no tuning");
    ok = FALSE;
  } else if (ok && !add_row (t, name, tuning, "stored")) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_FAILED,
        "malformed clfilters-tuning message (GST_DEBUG=gst-cl-tune:5)");
    ok = FALSE;
  }
  g_clear_pointer (&tuning, gst_structure_free);
  return ok;
}

/* Prints the device, the store's folder, the table and the sweep summary */
static void
print_report (Tune * t)
{
  const gchar *cache = g_getenv ("XDG_CACHE_HOME");
  gchar *store;

  /* as gst_cl_tune_store_dir() */
  if (!cache || !g_path_is_absolute (cache))
    cache = g_get_user_cache_dir ();
  store = g_build_filename (cache, "clfilters", NULL);
  g_print (t->markdown ? "- device: %s\n- store: %s\n\n%s" :
      "device: %s\nstore:  %s\n\n%s", t->device_name && *t->device_name ?
      t->device_name : "(none)", store, t->table->str);
  g_free (store);
  if (t->swept)
    g_print ("\nsummary: %u of %u cases chose within %.0f%% of the sweep's "
        "best; worst chosen/best %.2f (%s)\n", t->close, t->swept,
        (CLOSE_ENOUGH - 1) * 100, t->worst, t->worst_case);
}

/* Every case of the lists, a row each in the table (after its header) */
static void
run_cases (Tune * t, gchar ** el_list, gchar ** fmt_list, gchar ** size_list,
    guint total)
{
  gchar **e, **f, **s;
  GError *err = NULL;
  guint c, done = 0;

  /* the header row, and in markdown the alignment row */
  t->table = g_string_new (NULL);
  for (c = 0; c < N_COLUMNS (t); c++)
    cell (t, c, g_strdup (columns[c].title));
  for (c = 0; t->markdown && c <= N_COLUMNS (t); c++)
    g_string_append (t->table, c == N_COLUMNS (t) ? "|\n" :
        columns[c].width > 0 ? "|---:" : "|---");
  for (e = el_list; *e; e++)
    for (f = fmt_list; *f; f++)
      for (s = size_list; *s; s++) {
        gchar *name[4] = { *e, *f, *s, NULL };

        g_printerr ("[%u/%u] %s %s %s\n", ++done, total, *e, *f, *s);
        if (!run_case (t, name, &err)) {
          g_printerr ("gst-cl-tune: %s %s %s failed: %s\n", *e, *f, *s,
              err->message);
          g_clear_error (&err);
          add_row (t, name, NULL, "failed");
          t->failed++;
        }
      }
}

static gboolean
size_ok (const gchar * s)
{
  guint w, h;
  gchar tail;

  return sscanf (s, "%ux%u%c", &w, &h, &tail) == 2 && w > 0 && h > 0 &&
      w <= 32768 && h <= 32768 && (guint64) w * h >= MIN_PIXELS;
}

/* what is wrong with the lists of the options, or NULL */
static const gchar *
check_lists (gchar ** el_list, gchar ** fmt_list, gchar ** size_list)
{
  gchar **e, **f, **s;

  for (e = el_list; *e; e++)
    if (!find_spec (*e))
      return "unknown element in --elements";
  for (f = fmt_list; *f; f++)
    if (gst_video_format_from_string (*f) == GST_VIDEO_FORMAT_UNKNOWN)
      return "unknown format in --formats";
  for (s = size_list; *s; s++)
    if (!size_ok (*s))
      return "bad size in --sizes (WxH, at least 256x256 pixels: smaller "
          "frames are never tuned)";
  return NULL;
}

static int
usage (GOptionContext * ctx, const gchar * why)
{
  gchar *help = g_option_context_get_help (ctx, TRUE, NULL);

  g_printerr ("gst-cl-tune: %s\n\n%s", why, help);
  g_free (help);
  return 2;
}

int
main (int argc, char **argv)
{
  gchar *elements = NULL, *formats = NULL, *sizes = NULL;
  gchar **el_list, **fmt_list, **size_list;
  const gchar *why;
  Tune t = { 0, };
  GError *err = NULL;
  GOptionEntry entries[] = {
    {"device", 'd', 0, G_OPTION_ARG_STRING, &t.device,
        "OpenCL device (cpu, gpu, 1.0, part of a name)", "SEL"},
    {"elements", 'e', 0, G_OPTION_ARG_STRING, &elements, "Elements", "LIST"},
    {"formats", 'f', 0, G_OPTION_ARG_STRING, &formats, "Formats", "LIST"},
    {"sizes", 's', 0, G_OPTION_ARG_STRING, &sizes, "Frame sizes", "WxH,..."},
    {"sweep", 0, 0, G_OPTION_ARG_NONE, &t.sweep,
        "Also time every candidate, to compare the choice with the best", NULL},
    {"markdown", 0, 0, G_OPTION_ARG_NONE, &t.markdown,
        "Print a GitHub table (docs/tuning.md)", NULL},
    {"keep", 0, 0, G_OPTION_ARG_NONE, &t.keep,
        "Keep stored choices: measure only the cases without one", NULL},
    {NULL}
  };
  GOptionContext *ctx = g_option_context_new ("- tune the clfilters "
      "kernels for an OpenCL device");
  guint total;

  g_option_context_set_summary (ctx, "Measures the work decomposition of "
      "each element, format and size on the device, stores the fastest (as "
      "the elements do on first use) and prints it against the defaults.\n"
      "Defaults: --elements clgaussian,clgaussian-r7,cllaplace,clhistogram "
      "--formats GRAY8,RGBA,NV12 --sizes 1920x1080,3840x2160 (sizes of at "
      "least 256x256 pixels: smaller frames are never tuned).");
  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_group (ctx, gst_init_get_option_group ());
  if (!g_option_context_parse (ctx, &argc, &argv, &err))
    return usage (ctx, err->message);
  if (argc > 1)
    return usage (ctx, "unexpected arguments");
  if (t.keep && t.sweep)
    return usage (ctx, "--sweep measures every case again: no --keep");
  GST_DEBUG_CATEGORY_INIT (gst_cl_tune_debug, "gst-cl-tune", 0,
      "gst-cl-tune program");

  el_list = g_strsplit (elements ? elements :
      "clgaussian,clgaussian-r7,cllaplace,clhistogram", ",", -1);
  fmt_list = g_strsplit (formats ? formats : "GRAY8,RGBA,NV12", ",", -1);
  size_list = g_strsplit (sizes ? sizes : "1920x1080,3840x2160", ",", -1);
  if ((why = check_lists (el_list, fmt_list, size_list)))
    return usage (ctx, why);
  total = g_strv_length (el_list) * g_strv_length (fmt_list) *
      g_strv_length (size_list);
  if (total == 0)
    return usage (ctx, "no case to tune");
  g_option_context_free (ctx);

  /* read by the elements when their caps are set (gstcltuner.c) */
  if (t.keep)
    g_unsetenv ("GST_CL_TUNE");
  else
    g_setenv ("GST_CL_TUNE", t.sweep ? "sweep" : "force", TRUE);

  run_cases (&t, el_list, fmt_list, size_list, total);
  print_report (&t);

  g_string_free (t.table, TRUE);
  g_strfreev (el_list);
  g_strfreev (fmt_list);
  g_strfreev (size_list);
  g_free (elements);
  g_free (formats);
  g_free (sizes);
  g_free (t.device);
  g_free (t.device_name);
  g_free (t.worst_case);
  return t.failed ? 1 : 0;
}
