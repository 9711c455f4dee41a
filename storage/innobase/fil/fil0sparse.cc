/*****************************************************************************

Copyright (c) 2026, the mysql-compress authors.

This program is free software; you can redistribute it and/or modify it under
the terms of the GNU General Public License, version 2.0, as published by the
Free Software Foundation.

This program is designed to work with certain software (including but not
limited to OpenSSL) that is licensed under separate terms, as designated in a
particular file or component or in included license documentation. The
authors of this program hereby grant you an additional permission to link the
program and your derivative works with the separately licensed software that
they have either included with the program or referenced in the
documentation.

This program is distributed in the hope that it will be useful, but WITHOUT
ANY WARRANTY; without even the implied warranty of MERCHANTABILITY or FITNESS
FOR A PARTICULAR PURPOSE. See the GNU General Public License, version 2.0,
for more details.

You should have received a copy of the GNU General Public License along with
this program; if not, write to the Free Software Foundation, Inc.,
51 Franklin St, Fifth Floor, Boston, MA 02110-1301  USA

*****************************************************************************/


/** @file fil/fil0sparse.cc
 Sparse files for page-compressed tablespaces (see fil0sparse.h).

 Created 2026-11-28 */

#include "fil0sparse.h"

#include <cerrno>
#include <cstring>

#ifdef UNIV_LINUX
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <unistd.h>
#endif /* UNIV_LINUX */

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <optional>
#include <vector>

#include "buf0dblwr.h"
#include "ibuf0ibuf.h"
#include "log0chkp.h"
#include "log0log.h"
#include "log0meb.h"
#include "my_dbug.h"
#include "mtr0mtr.h"
#include "mysqld_error.h"
#include "srv0mon.h"
#include "srv0srv.h"
#include "ut0new.h"

#include "sql/current_thd.h"
#include "sql/sql_backup_lock.h"

bool fil_page_compression_sparse = true;

bool fil_page_compression_punch_freed = false;

bool fil_space_extend_sparse(const fil_space_t *space, const fil_node_t *file) {
#ifdef UNIV_LINUX
  return fil_page_compression_sparse && file->punch_hole &&
         space->purpose == FIL_TYPE_TABLESPACE && space->is_compressed();
#else
  (void)space;
  (void)file;
  return false;
#endif /* UNIV_LINUX */
}

int fil_node_extend_sparse(const fil_node_t *file, os_offset_t size) {
#ifdef UNIV_LINUX
  int err = 0;
  DBUG_EXECUTE_IF("fil_sparse_extend_fail", err = EIO;);
  if (err == 0 && ftruncate(file->handle.m_file, static_cast<off_t>(size)) != 0) {
    err = errno;
  }
  if (err != 0) {
    ib::warn(ER_IB_MSG_320)
        << "Could not extend " << file->name << " to " << size
        << " bytes as a sparse file (innodb_page_compression_sparse):"
           " operating system error "
        << err << " (" << strerror(err) << "); writing zeros instead";
  }
  return err;
#else
  (void)file;
  (void)size;
  return EINVAL;
#endif /* UNIV_LINUX */
}

/** Whether the freed pages of a tablespace can be noted and punched now:
innodb_page_compression_punch_freed is ON and the tablespace is a
page-compressed single-file tablespace on a file system that punches.
@param[in]      space   tablespace
@return true if its frees are noted */
static bool fil_space_punch_freed_ok(const fil_space_t *space) {
#ifdef UNIV_LINUX
  return fil_page_compression_punch_freed &&
         space->purpose == FIL_TYPE_TABLESPACE && space->is_compressed() &&
         space->files.size() == 1 && space->files.front().punch_hole;
#else
  (void)space;
  return false;
#endif /* UNIV_LINUX */
}

namespace {

/** A run of pages freed in one mini-transaction. */
struct fil_sparse_note_t {
  /** first page */
  page_no_t first;
  /** number of pages */
  page_no_t n;
  /** an LSN at least the end LSN of the mini-transaction that freed the
  pages; 0 until fil_sparse_punch_step() stamps it */
  lsn_t lsn;
};

using fil_sparse_notes_t =
    std::vector<fil_sparse_note_t, ut::allocator<fil_sparse_note_t>>;

/** Notes in all tablespaces, so that the master thread skips the step
while there are none. */
std::atomic<uint64_t> fil_sparse_n_notes{0};

/** A checkpoint LSN sampled by fil_sparse_punch_step(). */
struct fil_sparse_sample_t {
  /** seconds of a steady clock */
  uint64_t secs;
  /** the last checkpoint LSN then */
  lsn_t lsn;
};

/** The samples of the last FIL_SPARSE_SAMPLES steps, a ring written by
the master thread only (the only caller of fil_sparse_punch_step()). */
constexpr size_t FIL_SPARSE_SAMPLES = 128;
std::array<fil_sparse_sample_t, FIL_SPARSE_SAMPLES> fil_sparse_samples{};
size_t fil_sparse_n_samples = 0;

/** Seconds of a steady clock. */
uint64_t fil_sparse_now() {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::seconds>(
          std::chrono::steady_clock::now().time_since_epoch())
          .count());
}

/** Records the checkpoint LSN of this step and returns the one of at least
FIL_SPARSE_PUNCH_LAG seconds ago.
@param[in]      checkpoint_lsn  the last checkpoint LSN now
@param[out]     lagged          the newest sampled checkpoint LSN at least
                                the lag old
@return false if no sample is that old yet */
bool fil_sparse_lagged_checkpoint(lsn_t checkpoint_lsn, lsn_t *lagged) {
  const uint64_t now = fil_sparse_now();
  uint64_t lag = FIL_SPARSE_PUNCH_LAG;
  DBUG_EXECUTE_IF("fil_sparse_punch_no_lag", lag = 0;);
  fil_sparse_samples[fil_sparse_n_samples % FIL_SPARSE_SAMPLES] = {
      now, checkpoint_lsn};
  ++fil_sparse_n_samples;
  const size_t n = std::min(fil_sparse_n_samples, FIL_SPARSE_SAMPLES);
  for (size_t i = 0; i < n; i++) {
    /* newest first */
    const auto &s =
        fil_sparse_samples[(fil_sparse_n_samples - 1 - i) % FIL_SPARSE_SAMPLES];
    if (s.secs + lag <= now) {
      *lagged = s.lsn;
      return true;
    }
  }
  return false;
}

}  // namespace

/** The notes of one tablespace (fil_space_t::sparse_freed); every access
under the tablespace's X-latch, but for n_notes. */
struct fil_sparse_freed_t {
  fil_sparse_notes_t notes{
      ut::allocator<fil_sparse_note_t>(UT_NEW_THIS_FILE_PSI_KEY())};
  /** notes.size(), read without the latch by fil_sparse_punch_step() to
  find the tablespaces that have notes */
  std::atomic<size_t> n_notes{0};
  /** FLUSH TABLES ... FOR EXPORT in progress on the tablespace (a count:
  fil_sparse_export()); no page is punched meanwhile */
  uint32_t exporting{0};
};

/** Counts the pages of notes that will never be punched.
@param[in]      n       pages */
static void fil_sparse_count_dropped(uint64_t n) {
  if (n > 0) {
    MONITOR_INC_VALUE(MONITOR_FIL_SPARSE_DROPPED, n);
  }
}

/** Sets the number of notes of a tablespace after its vector changed.
@param[in,out]  f       notes of a tablespace */
static void fil_sparse_recount(fil_sparse_freed_t *f) {
  const size_t before = f->n_notes.load(std::memory_order_relaxed);
  const size_t after = f->notes.size();
  if (after > before) {
    fil_sparse_n_notes.fetch_add(after - before, std::memory_order_relaxed);
  } else {
    fil_sparse_n_notes.fetch_sub(before - after, std::memory_order_relaxed);
  }
  f->n_notes.store(after, std::memory_order_relaxed);
}

/** Drops the notes of a tablespace (their pages keep their blocks) and
counts their pages in file_sparse_pages_dropped.
@param[in,out]  f       notes of a tablespace */
static void fil_sparse_drop(fil_sparse_freed_t *f) {
  uint64_t pages = 0;
  for (const auto &note : f->notes) {
    pages += note.n;
  }
  fil_sparse_count_dropped(pages);
  f->notes.clear();
  f->notes.shrink_to_fit();
  fil_sparse_recount(f);
}

/** The notes of a tablespace, created if it has none.
@param[in,out]  space   tablespace, X-latched
@return its notes */
static fil_sparse_freed_t *fil_sparse_get(fil_space_t *space) {
  fil_sparse_freed_t *f = space->sparse_freed.load(std::memory_order_relaxed);
  if (f == nullptr) {
    f = ut::new_withkey<fil_sparse_freed_t>(UT_NEW_THIS_FILE_PSI_KEY);
    space->sparse_freed.store(f, std::memory_order_release);
  }
  return f;
}

void fil_sparse_note_free(space_id_t space_id, page_no_t first, page_no_t n) {
  if (n == 0) {
    return;
  }
  const bool on = fil_page_compression_punch_freed;
  if (!on && fil_sparse_n_notes.load(std::memory_order_relaxed) == 0) {
    return;
  }
  fil_space_t *space = fil_space_get(space_id);
  if (space == nullptr) {
    return;
  }
  ut_ad(rw_lock_own(&space->latch, RW_LOCK_X));
  fil_sparse_freed_t *f = space->sparse_freed.load(std::memory_order_relaxed);

  /* A free that is not noted must not leave an older note of the same
  pages to be punched later (the page may have been used in between and
  have records the checkpoint has not passed): the tablespace's notes go.
  Pages with changes waiting in the change buffer are not noted: a merge
  of those changes, at a read of the freed page, writes redo records to
  it after its free (ibuf_merge_or_delete_for_page()). */
  if (!on || !fil_space_punch_freed_ok(space) ||
      ibuf_bitmap_any_buffered(page_id_t(space_id, first),
                               page_size_t(space->flags), n)) {
    if (f != nullptr && !f->notes.empty()) {
      fil_sparse_drop(f);
    }
    return;
  }

  f = fil_sparse_get(space);
  MONITOR_INC_VALUE(MONITOR_FIL_SPARSE_FREED, n);
  if (f->notes.size() >= FIL_SPARSE_MAX_NOTES) {
    /* Dropping this note alone could leave an older note of the same
    page, stamped before a reuse of it, to be punched: drop all. */
    fil_sparse_drop(f);
  }
  /* A run that continues the last unstamped one (the pages of a segment
  freed one after the other) extends it. */
  if (!f->notes.empty() && f->notes.back().lsn == 0 &&
      f->notes.back().first + f->notes.back().n == first) {
    f->notes.back().n += n;
  } else {
    f->notes.push_back({first, n, 0});
    fil_sparse_recount(f);
  }
}

void fil_sparse_space_free(fil_space_t *space) {
  fil_sparse_freed_t *f = space->sparse_freed.load(std::memory_order_relaxed);
  if (f != nullptr) {
    fil_sparse_drop(f);
    ut::delete_(f);
    space->sparse_freed.store(nullptr, std::memory_order_relaxed);
  }
}

void fil_sparse_export(space_id_t space_id, bool start) {
  fil_space_t *space = fil_space_acquire_silent(space_id);
  if (space == nullptr) {
    return;
  }
  /* Under the X-latch: a step that punches in this tablespace holds it
  until it is done, and a later step sees the count. */
  mtr_t mtr;
  mtr.start();
  mtr_x_lock_space(space, &mtr);
  fil_sparse_freed_t *f = fil_sparse_get(space);
  if (start) {
    ++f->exporting;
  } else if (f->exporting > 0) {
    --f->exporting;
  }
  mtr.commit();
  fil_space_release(space);
}

/** Punches the pages of one tablespace that a checkpoint allows.
@param[in]      space_id        tablespace
@param[in]      ready_lsn       notes stamped at most this LSN are ready:
                                the checkpoint of FIL_SPARSE_PUNCH_LAG
                                seconds ago */
static void fil_sparse_punch_space(space_id_t space_id, lsn_t ready_lsn) {
  fil_space_t *space = fil_space_acquire_silent(space_id);
  if (space == nullptr) {
    return;
  }
  mtr_t mtr;
  mtr.start();
  mtr_x_lock_space(space, &mtr);

  fil_sparse_freed_t *f = space->sparse_freed.load(std::memory_order_relaxed);
  if (f == nullptr || f->notes.empty() || f->exporting > 0) {
    /* FLUSH TABLES ... FOR EXPORT: a file copy must not read a page while
    it is punched; the notes wait for UNLOCK TABLES. */
    mtr.commit();
    fil_space_release(space);
    return;
  }
  if (!fil_space_punch_freed_ok(space)) {
    fil_sparse_drop(f);
    mtr.commit();
    fil_space_release(space);
    return;
  }

  /* The mini-transactions that noted frees held this latch until their
  commit: they have committed, and the current LSN is at least their end
  LSN. */
  const lsn_t now = log_get_lsn(*log_sys);
  for (auto &note : f->notes) {
    if (note.lsn == 0) {
      note.lsn = now;
    }
  }

  /* The pages of the notes the ready LSN has not passed may not be
  punched (a page freed, allocated again and freed again has an older
  note too): merged, sorted. */
  fil_sparse_notes_t later{
      ut::allocator<fil_sparse_note_t>(UT_NEW_THIS_FILE_PSI_KEY())};
  fil_sparse_notes_t ready{
      ut::allocator<fil_sparse_note_t>(UT_NEW_THIS_FILE_PSI_KEY())};
  page_no_t budget = FIL_SPARSE_STEP_PAGES;
  size_t kept = 0;
  for (auto &note : f->notes) {
    if (note.lsn > ready_lsn) {
      later.push_back(note);
      f->notes[kept++] = note;
    } else if (budget > 0) {
      const page_no_t n = std::min(note.n, budget);
      ready.push_back({note.first, n, note.lsn});
      budget -= n;
      if (n < note.n) {
        f->notes[kept++] = {note.first + n, note.n - n, note.lsn};
      }
    } else {
      f->notes[kept++] = note;
    }
  }
  f->notes.resize(kept);

  auto by_first = [](const fil_sparse_note_t &a, const fil_sparse_note_t &b) {
    return a.first < b.first;
  };
  std::sort(later.begin(), later.end(), by_first);
  std::sort(ready.begin(), ready.end(), by_first);

  const page_size_t page_size(space->flags);
  const page_no_t extent = FSP_EXTENT_SIZE;
  std::bitset<FSP_EXTENT_SIZE_MIN> free_bits;
  page_no_t bits_extent = FIL_NULL;
  bool in_limit = false;
  auto later_it = later.cbegin();
  page_no_t run_first = FIL_NULL;
  page_no_t run_n = 0;
  page_no_t last = FIL_NULL;
  bool failed = false;
  size_t calls = 0;
  uint64_t dropped = 0;

  auto punch_run = [&]() {
    if (run_n == 0) {
      return;
    }
    ++calls;
    const dberr_t err =
        failed ? DB_ERROR : fil_space_punch_pages(space, run_first, run_n);
    if (err == DB_SUCCESS) {
      MONITOR_INC_VALUE(MONITOR_FIL_SPARSE_PUNCHED, run_n);
    } else {
      failed = true;
      dropped += run_n;
    }
    run_n = 0;
  };

  for (auto note = ready.cbegin(); note != ready.cend(); ++note) {
    for (page_no_t p = note->first; p < note->first + note->n; ++p) {
      if (failed) {
        ++dropped;
        continue;
      }
      if (last != FIL_NULL && p <= last) {
        ++dropped; /* a page of an overlapping note, done */
        continue;
      }
      last = p;
      /* Not a page of a later note. */
      while (later_it != later.cend() &&
             later_it->first + later_it->n <= p) {
        ++later_it;
      }
      bool punch = !(later_it != later.cend() && later_it->first <= p &&
                     later_it->first + later_it->n > p);
      if (punch) {
        const page_no_t first_of_extent = p - p % extent;
        if (first_of_extent != bits_extent) {
          bits_extent = first_of_extent;
          in_limit = fsp_extent_free_bits(space_id, page_size, first_of_extent,
                                          free_bits, &mtr);
        }
        /* Beyond the free limit no page was ever used: nothing to punch
        that a sparse extension did not leave as a hole. */
        punch = in_limit && free_bits.test(p - first_of_extent);
      }
      if (!punch) {
        ++dropped;
      }
      if (punch && run_n > 0 && run_first + run_n == p) {
        ++run_n;
      } else {
        punch_run();
        if (punch) {
          if (failed) {
            ++dropped;
          } else if (calls >= FIL_SPARSE_STEP_CALLS) {
            /* Enough fallocate() calls under the latch for this step:
            this page and the rest of the ready ones are noted again, for
            the next step. */
            f->notes.push_back({p, note->first + note->n - p, note->lsn});
            for (auto rest = note + 1; rest != ready.cend(); ++rest) {
              f->notes.push_back(*rest);
            }
            goto done;
          } else {
            run_first = p;
            run_n = 1;
          }
        }
      }
    }
  }
  punch_run();
done:
  fil_sparse_count_dropped(dropped);
  if (failed) {
    /* The file system refused, or the file could not be opened: forget the
    tablespace's notes (its pages keep their blocks). */
    fil_sparse_drop(f);
  }
  fil_sparse_recount(f);

  mtr.commit();
  fil_space_release(space);
}

/** Whether a physical backup may be copying the data files now, by the
signals the server sees: LOCK INSTANCE FOR BACKUP held (XtraBackup's
default --lock-ddl, the whole copy) or redo log archiving active
(XtraBackup and MySQL Enterprise Backup use it where
innodb_redo_log_archive_dirs is set). While it returns false the caller
holds the backup lock's shared (IX) mode in guard, so that a LOCK INSTANCE
FOR BACKUP waits for the step to end.
@param[in,out]  guard   holds the shared backup lock when false returned
@return true if a backup may be running */
static bool fil_sparse_backup_running(
    std::optional<Shared_backup_lock_guard> &guard) {
  THD *thd = current_thd;
  DBUG_EXECUTE_IF("fil_sparse_backup_running", return true;);
  /* Tests show what the rule is for by leaving it out. */
  DBUG_EXECUTE_IF("fil_sparse_backup_ignored", return false;);
  if (thd == nullptr || meb::redo_log_archive_is_active()) {
    return true;
  }
  guard.emplace(thd);
  if (*guard != Shared_backup_lock_guard::Lock_result::locked) {
    return true;
  }
  /* The archive may have started while the lock was taken. */
  return meb::redo_log_archive_is_active();
}

void fil_sparse_punch_step() {
  if (fil_sparse_n_notes.load(std::memory_order_relaxed) == 0) {
    return;
  }
  /* Tests hold the notes unstamped (pages freed and allocated again
  before the step sees them). */
  DBUG_EXECUTE_IF("fil_sparse_punch_hold", return;);
  /* The checkpoint first, the backups' signals after: a backup that
  signals after this reads its own start checkpoint later, so at least
  this one. */
  const lsn_t checkpoint_lsn = log_sys->last_checkpoint_lsn.load();
  lsn_t ready_lsn = 0;
  const bool have_lag = fil_sparse_lagged_checkpoint(checkpoint_lsn, &ready_lsn);

  /* The recovery of DETECT_ONLY's reduced doublewrite refuses an
  all-zero page it has an entry for (recv::Pages::reduced_recover()). */
  const bool drop =
      !fil_page_compression_punch_freed || dblwr::is_reduced_inited;

  std::vector<space_id_t, ut::allocator<space_id_t>> ids{
      ut::allocator<space_id_t>(UT_NEW_THIS_FILE_PSI_KEY())};
  (void)Fil_iterator::for_each_file([&](fil_node_t *file) {
    const fil_sparse_freed_t *f =
        file->space->sparse_freed.load(std::memory_order_acquire);
    if (f != nullptr && f->n_notes.load(std::memory_order_relaxed) > 0) {
      ids.push_back(file->space->id);
    }
    return DB_SUCCESS;
  });
  if (drop) {
    for (const space_id_t id : ids) {
      fil_space_t *space = fil_space_acquire_silent(id);
      if (space != nullptr) {
        mtr_t mtr;
        mtr.start();
        mtr_x_lock_space(space, &mtr);
        fil_sparse_freed_t *f =
            space->sparse_freed.load(std::memory_order_relaxed);
        if (f != nullptr) {
          fil_sparse_drop(f);
        }
        mtr.commit();
        fil_space_release(space);
      }
    }
    return;
  }
  std::optional<Shared_backup_lock_guard> guard;
  if (fil_sparse_backup_running(guard)) {
    MONITOR_INC(MONITOR_FIL_SPARSE_SUSPENDED);
    return;
  }
  if (!have_lag) {
    return;
  }
  for (const space_id_t id : ids) {
    fil_sparse_punch_space(id, ready_lsn);
  }
}

#ifdef UNIV_LINUX
namespace {

/** Adds the bytes allocated to a range of a file, by FIEMAP.
@param[in]      fd      open file
@param[in]      start   first byte
@param[in]      len     bytes
@param[in,out]  bytes   allocated bytes of the range are added
@return false if the file system does not answer */
bool fil_sparse_allocated_in(int fd, uint64_t start, uint64_t len,
                             uint64_t *bytes) {
  constexpr uint32_t N_EXTENTS = 128;
  /* struct fiemap ends with a flexible array: 8-byte words hold it. */
  constexpr size_t N_WORDS =
      (sizeof(struct fiemap) + N_EXTENTS * sizeof(struct fiemap_extent) + 7) /
      8;
  uint64_t buf[N_WORDS];
  const uint64_t end = start + len;
  uint64_t pos = start;
  while (pos < end) {
    memset(buf, 0, sizeof buf);
    auto *fm = reinterpret_cast<struct fiemap *>(buf);
    fm->fm_start = pos;
    fm->fm_length = end - pos;
    fm->fm_extent_count = N_EXTENTS;
    if (ioctl(fd, FS_IOC_FIEMAP, fm) != 0) {
      return false;
    }
    const uint32_t n = std::min(fm->fm_mapped_extents, N_EXTENTS);
    if (n == 0) {
      break;
    }
    uint64_t next = end;
    for (uint32_t i = 0; i < n; i++) {
      const struct fiemap_extent &x = fm->fm_extents[i];
      const uint64_t x_first = static_cast<uint64_t>(x.fe_logical);
      const uint64_t x_end = x_first + static_cast<uint64_t>(x.fe_length);
      const uint64_t a = std::max(pos, x_first);
      const uint64_t b = std::min(end, x_end);
      if (b > a) {
        *bytes += b - a;
      }
      next = (x.fe_flags & FIEMAP_EXTENT_LAST) != 0 ? end : x_end;
    }
    if (n < N_EXTENTS) {
      break;
    }
    /* The array was full: go on after its last extent. */
    pos = std::max(next, pos + 1);
  }
  return true;
}

}  // namespace
#endif /* UNIV_LINUX */

bool fil_sparse_free_allocated(space_id_t space_id, uint64_t *bytes) {
  *bytes = 0;
#ifdef UNIV_LINUX
  fil_space_t *space = fil_space_acquire_silent(space_id);
  if (space == nullptr) {
    return false;
  }
  if (space->files.size() != 1) {
    fil_space_release(space);
    return false;
  }
  const std::string path = space->files.front().name;
  bool success = false;
  pfs_os_file_t fh = os_file_create_simple_no_error_handling(
      innodb_data_file_key, path.c_str(), OS_FILE_OPEN, OS_FILE_READ_ONLY,
      srv_read_only_mode, &success);
  if (!success) {
    fil_space_release(space);
    return false;
  }

  const page_size_t page_size(space->flags);
  const uint64_t phys = page_size.physical();
  const page_no_t extent = FSP_EXTENT_SIZE;
  /* One extent descriptor page per batch: the latch is held that long. */
  const page_no_t batch = static_cast<page_no_t>(page_size.physical());
  using run_t = std::pair<page_no_t, page_no_t>;
  std::vector<run_t, ut::allocator<run_t>> runs{
      ut::allocator<run_t>(UT_NEW_THIS_FILE_PSI_KEY())};
  std::bitset<FSP_EXTENT_SIZE_MIN> free_bits;
  bool ok = true;
  page_no_t first = 0;
  for (bool done = false; ok && !done;) {
    runs.clear();
    auto add = [&](page_no_t p, page_no_t n) {
      if (!runs.empty() && runs.back().first + runs.back().second == p) {
        runs.back().second += n;
      } else {
        runs.emplace_back(p, n);
      }
    };
    mtr_t mtr;
    mtr.start();
    mtr_x_lock_space(space, &mtr);
    const page_no_t size = space->size;
    const page_no_t limit = std::min(space->free_limit, size);
    const page_no_t stop = std::min(limit, first + batch);
    for (page_no_t e = first; e < stop; e += extent) {
      if (!fsp_extent_free_bits(space_id, page_size, e, free_bits, &mtr)) {
        break;
      }
      for (page_no_t i = 0; i < extent && e + i < size; i++) {
        if (free_bits.test(i)) {
          add(e + i, 1);
        }
      }
    }
    done = stop >= limit;
    if (done && size > limit) {
      add(limit, size - limit);
    }
    mtr.commit();
    for (const auto &run : runs) {
      if (!fil_sparse_allocated_in(fh.m_file, run.first * phys,
                                   run.second * phys, bytes)) {
        ok = false;
        break;
      }
    }
    first = stop;
  }
  os_file_close(fh);
  fil_space_release(space);
  return ok;
#else
  (void)space_id;
  return false;
#endif /* UNIV_LINUX */
}
