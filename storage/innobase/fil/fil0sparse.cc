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
#include <atomic>
#include <vector>

#include "buf0dblwr.h"
#include "log0chkp.h"
#include "log0log.h"
#include "my_dbug.h"
#include "mtr0mtr.h"
#include "mysqld_error.h"
#include "srv0mon.h"
#include "srv0srv.h"
#include "ut0new.h"

bool fil_page_compression_sparse = true;

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

}  // namespace

/** The notes of one tablespace (fil_space_t::sparse_freed); every access
under the tablespace's X-latch. */
struct fil_sparse_freed_t {
  fil_sparse_notes_t notes{
      ut::allocator<fil_sparse_note_t>(UT_NEW_THIS_FILE_PSI_KEY())};
};

/** Drops the notes of a tablespace (their pages keep their blocks).
@param[in,out]  f       notes of a tablespace */
static void fil_sparse_drop(fil_sparse_freed_t *f) {
  fil_sparse_n_notes.fetch_sub(f->notes.size(), std::memory_order_relaxed);
  f->notes.clear();
  f->notes.shrink_to_fit();
}

void fil_sparse_note_free(space_id_t space_id, page_no_t first, page_no_t n) {
  if (!fil_page_compression_sparse || n == 0) {
    return;
  }
  fil_space_t *space = fil_space_get(space_id);
  if (space == nullptr || space->files.size() != 1 ||
      !fil_space_extend_sparse(space, &space->files.front())) {
    return;
  }
  ut_ad(rw_lock_own(&space->latch, RW_LOCK_X));

  fil_sparse_freed_t *f = space->sparse_freed;
  if (f == nullptr) {
    f = space->sparse_freed =
        ut::new_withkey<fil_sparse_freed_t>(UT_NEW_THIS_FILE_PSI_KEY);
  }
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
    fil_sparse_n_notes.fetch_add(1, std::memory_order_relaxed);
  }
  MONITOR_INC_VALUE(MONITOR_FIL_SPARSE_FREED, n);
}

void fil_sparse_space_free(fil_space_t *space) {
  if (space->sparse_freed != nullptr) {
    fil_sparse_drop(space->sparse_freed);
    ut::delete_(space->sparse_freed);
    space->sparse_freed = nullptr;
  }
}

/** Punches the pages of one tablespace that the checkpoint allows.
@param[in]      space_id        tablespace
@param[in]      checkpoint_lsn  the last checkpoint LSN */
static void fil_sparse_punch_space(space_id_t space_id, lsn_t checkpoint_lsn) {
  fil_space_t *space = fil_space_acquire_silent(space_id);
  if (space == nullptr) {
    return;
  }
  mtr_t mtr;
  mtr.start();
  mtr_x_lock_space(space, &mtr);

  fil_sparse_freed_t *f = space->sparse_freed;
  if (f == nullptr || f->notes.empty()) {
    mtr.commit();
    fil_space_release(space);
    return;
  }
  if (!fil_page_compression_sparse || space->files.size() != 1 ||
      !space->files.front().punch_hole) {
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

  /* The pages of the notes the checkpoint has not passed may not be
  punched (a page freed, allocated again and freed again has an older
  note too): merged, sorted. */
  fil_sparse_notes_t later{
      ut::allocator<fil_sparse_note_t>(UT_NEW_THIS_FILE_PSI_KEY())};
  fil_sparse_notes_t ready{
      ut::allocator<fil_sparse_note_t>(UT_NEW_THIS_FILE_PSI_KEY())};
  page_no_t budget = FIL_SPARSE_STEP_PAGES;
  size_t kept = 0;
  for (auto &note : f->notes) {
    if (note.lsn > checkpoint_lsn) {
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
  fil_sparse_n_notes.fetch_sub(f->notes.size() - kept,
                               std::memory_order_relaxed);
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

  auto punch_run = [&]() {
    if (run_n == 0 || failed) {
      return;
    }
    const dberr_t err = fil_space_punch_pages(space, run_first, run_n);
    if (err == DB_SUCCESS) {
      MONITOR_INC_VALUE(MONITOR_FIL_SPARSE_PUNCHED, run_n);
    } else {
      failed = true;
    }
    run_n = 0;
  };

  for (const auto &note : ready) {
    for (page_no_t p = note.first; p < note.first + note.n && !failed; ++p) {
      if (last != FIL_NULL && p <= last) {
        continue; /* in an overlapping note, done */
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
      if (punch && run_n > 0 && run_first + run_n == p) {
        ++run_n;
      } else {
        punch_run();
        if (punch) {
          run_first = p;
          run_n = 1;
        }
      }
    }
  }
  punch_run();
  if (failed) {
    /* The file system refused, or the file could not be opened: forget the
    tablespace's notes (its pages keep their blocks). */
    fil_sparse_drop(f);
  }

  mtr.commit();
  fil_space_release(space);
}

void fil_sparse_punch_step() {
  if (fil_sparse_n_notes.load(std::memory_order_relaxed) == 0) {
    return;
  }
  /* Tests hold the notes unstamped (pages freed and allocated again
  before the step sees them). */
  DBUG_EXECUTE_IF("fil_sparse_punch_hold", return;);
  /* The recovery of DETECT_ONLY's reduced doublewrite refuses an
  all-zero page it has an entry for (recv::Pages::reduced_recover()). */
  const bool drop = dblwr::is_reduced_inited;
  const lsn_t checkpoint_lsn = log_sys->last_checkpoint_lsn.load();

  std::vector<space_id_t, ut::allocator<space_id_t>> ids{
      ut::allocator<space_id_t>(UT_NEW_THIS_FILE_PSI_KEY())};
  (void)Fil_iterator::for_each_file([&](fil_node_t *file) {
    if (file->space->is_compressed()) {
      ids.push_back(file->space->id);
    }
    return DB_SUCCESS;
  });
  for (const space_id_t id : ids) {
    if (drop) {
      fil_space_t *space = fil_space_acquire_silent(id);
      if (space != nullptr) {
        mtr_t mtr;
        mtr.start();
        mtr_x_lock_space(space, &mtr);
        if (space->sparse_freed != nullptr) {
          fil_sparse_drop(space->sparse_freed);
        }
        mtr.commit();
        fil_space_release(space);
      }
    } else {
      fil_sparse_punch_space(id, checkpoint_lsn);
    }
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
