/* kymo-parts.c: a load's input decoded in parts on threads, joined in order
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-parts"

#include "config.h"

#include "kymo-parts.h"

enum {
  PART_WAITING,
  PART_BUSY,
  PART_DONE,
};

struct _KymoParts
{
  GMutex        lock;
  GCond         cond;
  KymoPartFunc  decode;
  KymoPartIdleFunc idle;
  gpointer      user_data;
  guint         n_parts;
  guint         ahead;
  guint         threads;
  gboolean      help;
  GPtrArray    *workers;

  /* Under @lock. */
  guint8       *state;       /* one PART_* per part */
  guint         next_claim;  /* every part before it is busy or done */
  guint         released;    /* the join is done with every part before it */
  guint         wakes;       /* kymo_parts_wake() calls */
  gboolean      stop;
};

static gboolean
may_claim (KymoParts *parts)
{
  if (parts->next_claim >= parts->n_parts)
    return FALSE;
  return parts->ahead == 0 || parts->next_claim - parts->released < parts->ahead;
}

/* With @lock held and part @index claimed: decodes it with @lock released. */
static void
decode_claimed (KymoParts *parts,
                guint      index)
{
  g_mutex_unlock (&parts->lock);
  parts->decode (index, parts->user_data);
  g_mutex_lock (&parts->lock);
  parts->state[index] = PART_DONE;
  g_cond_broadcast (&parts->cond);
}

static gpointer
worker_run (gpointer user)
{
  KymoParts *parts = user;

  g_mutex_lock (&parts->lock);
  for (;;)
    {
      guint index;

      while (!parts->stop && !may_claim (parts))
        {
          if (parts->idle != NULL)
            {
              guint wakes = parts->wakes;
              gboolean did;

              g_mutex_unlock (&parts->lock);
              did = parts->idle (parts->user_data);
              g_mutex_lock (&parts->lock);
              /* A wake or a release while it ran would otherwise be missed. */
              if (did || wakes != parts->wakes || parts->stop || may_claim (parts))
                continue;
            }
          else if (parts->next_claim >= parts->n_parts)
            {
              g_mutex_unlock (&parts->lock);
              return NULL;
            }
          g_cond_wait (&parts->cond, &parts->lock);
        }
      if (parts->stop)
        break;
      index = parts->next_claim++;
      parts->state[index] = PART_BUSY;
      decode_claimed (parts, index);
    }
  g_mutex_unlock (&parts->lock);
  return NULL;
}

KymoParts *
kymo_parts_new (const KymoLoadOptions *options,
                gsize                  size,
                gsize                  parallel_min,
                guint                  n_parts,
                guint                  ahead,
                KymoPartFunc           decode,
                gpointer               user_data)
{
  return kymo_parts_new_full (options, size, parallel_min, n_parts, ahead, decode, NULL, user_data);
}

KymoParts *
kymo_parts_new_full (const KymoLoadOptions *options,
                     gsize                  size,
                     gsize                  parallel_min,
                     guint                  n_parts,
                     guint                  ahead,
                     KymoPartFunc           decode,
                     KymoPartIdleFunc       idle,
                     gpointer               user_data)
{
  KymoParts *parts = g_new0 (KymoParts, 1);
  guint n_workers;

  g_mutex_init (&parts->lock);
  g_cond_init (&parts->cond);
  parts->decode = decode;
  parts->idle = idle;
  parts->user_data = user_data;
  parts->n_parts = n_parts;
  parts->ahead = ahead;
  parts->state = g_new0 (guint8, MAX (n_parts, 1));
  parts->workers = g_ptr_array_new ();

  /* A worker for a part the loading thread would reach first is wasted. */
  parts->threads = kymo_load_options_get_threads (options, size, parallel_min);
  n_workers = MIN (parts->threads - 1, n_parts > 0 ? n_parts - 1 : 0);
  for (guint i = 0; i < n_workers; i++)
    {
      GThread *thread = g_thread_try_new ("kymo-part", worker_run, parts, NULL);

      /* Fewer threads only make it slower: the loading thread decodes what
       * no worker takes. */
      if (thread == NULL)
        break;
      g_ptr_array_add (parts->workers, thread);
    }
  parts->threads = parts->workers->len + 1;
  return parts;
}

void
kymo_parts_set_help (KymoParts *parts,
                     gboolean   help)
{
  parts->help = help;
}

guint
kymo_parts_get_threads (KymoParts *parts)
{
  return parts->threads;
}

void
kymo_parts_wait (KymoParts *parts,
                 guint      index)
{
  g_return_if_fail (index < parts->n_parts);

  g_mutex_lock (&parts->lock);
  if (parts->state[index] == PART_WAITING)
    {
      /* Parts are claimed in order, so every part before this one is taken
       * and the workers go on after it. */
      parts->state[index] = PART_BUSY;
      parts->next_claim = MAX (parts->next_claim, index + 1);
      g_mutex_unlock (&parts->lock);

      parts->decode (index, parts->user_data);

      g_mutex_lock (&parts->lock);
      parts->state[index] = PART_DONE;
    }
  while (parts->state[index] != PART_DONE)
    {
      guint other;

      if (!parts->help || parts->stop || !may_claim (parts))
        {
          g_cond_wait (&parts->cond, &parts->lock);
          continue;
        }
      /* A worker has the part wanted: take the next one meanwhile. */
      other = parts->next_claim++;
      parts->state[other] = PART_BUSY;
      decode_claimed (parts, other);
    }
  g_mutex_unlock (&parts->lock);
}

void
kymo_parts_wake (KymoParts *parts)
{
  g_mutex_lock (&parts->lock);
  parts->wakes++;
  g_cond_broadcast (&parts->cond);
  g_mutex_unlock (&parts->lock);
}

void
kymo_parts_release (KymoParts *parts,
                    guint      index)
{
  g_mutex_lock (&parts->lock);
  parts->released = MAX (parts->released, index + 1);
  g_cond_broadcast (&parts->cond);
  g_mutex_unlock (&parts->lock);
}

void
kymo_parts_free (KymoParts *parts)
{
  if (parts == NULL)
    return;
  g_mutex_lock (&parts->lock);
  parts->stop = TRUE;
  g_cond_broadcast (&parts->cond);
  g_mutex_unlock (&parts->lock);
  for (guint i = 0; i < parts->workers->len; i++)
    g_thread_join (g_ptr_array_index (parts->workers, i));

  g_ptr_array_unref (parts->workers);
  g_free (parts->state);
  g_cond_clear (&parts->cond);
  g_mutex_clear (&parts->lock);
  g_free (parts);
}

static gboolean
join_all (KymoParts        *parts,
          guint             n_parts,
          KymoPartJoinFunc  join,
          gpointer          user_data)
{
  for (guint i = 0; i < n_parts; i++)
    {
      kymo_parts_wait (parts, i);
      if (join != NULL && !join (i, user_data))
        return FALSE;
      kymo_parts_release (parts, i);
    }
  return TRUE;
}

gboolean
kymo_parts_run (const KymoLoadOptions *options,
                gsize                  size,
                gsize                  parallel_min,
                guint                  n_parts,
                guint                  ahead,
                KymoPartFunc           decode,
                KymoPartJoinFunc       join,
                gpointer               user_data)
{
  g_autoptr(KymoParts) parts = kymo_parts_new (options, size, parallel_min, n_parts, ahead,
                                               decode, user_data);

  /* With nothing to join in order, a loading thread that only waited for
   * the part it is at would leave one worker doing every part. */
  kymo_parts_set_help (parts, join == NULL);
  return join_all (parts, n_parts, join, user_data);
}

gboolean
kymo_parts_run_helped (const KymoLoadOptions *options,
                       gsize                  size,
                       gsize                  parallel_min,
                       guint                  n_parts,
                       KymoPartFunc           decode,
                       KymoPartJoinFunc       join,
                       KymoPartStartFunc      start,
                       gpointer               user_data)
{
  g_autoptr(KymoParts) parts = kymo_parts_new (options, size, parallel_min, n_parts, 0, decode, user_data);

  kymo_parts_set_help (parts, TRUE);
  if (start != NULL)
    start (user_data);
  return join_all (parts, n_parts, join, user_data);
}
