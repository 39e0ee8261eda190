// SQLite appends a transaction to the WAL frame by frame, each frame as two writes (a 24-byte
// header, then the page): a commit of a batch of creates made about 160 pwrite calls, a fifth
// of the writer thread's time (BENCHMARKS.md, "Round 9"). Here the appends are gathered and
// written in one call when the transaction's commit frame is complete.
//
// Why this is safe: SQLite publishes frames to other connections (the wal-index) only after the
// commit frame is written (and, with synchronous = FULL, synced), and every buffered byte is
// written before then — at the commit frame, and before any read, sync, truncate, size query,
// file control or close of the WAL file. Databases and journals are the default VFS's files
// untouched: only a file opened as a WAL is wrapped.
#include "store/sqlite/wal_write_buffer.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <cstring>
#include <mutex>

namespace leadline::store::sqlite {

namespace {

constexpr int kFrameHeaderBytes = 24;  // the WAL format's frame header
constexpr sqlite3_int64 kBufferBytes = 1 << 20;
constexpr sqlite3_int64 kWriteBytes = 31 * 4096;  // below the default VFS's 0x1ffff

// The wrapped WAL file: this header, then the default VFS's own file structure.
struct BufferedWal {
  sqlite3_file base;  // first: SQLite sees a sqlite3_file
  sqlite3_file* real;
  char* buffer;
  sqlite3_int64 buffer_offset;  // where buffer[0] belongs in the file
  sqlite3_int64 buffered;       // bytes in the buffer
  bool commit_frame_next;       // the last header written was a commit frame's
};

BufferedWal* wal(sqlite3_file* file) {
  return reinterpret_cast<BufferedWal*>(file);
}

// Written in pieces: the default VFS takes at most 0x1ffff bytes per write (it masks the length
// with that, so a larger one fails as "disk full").
int flush(BufferedWal* w) {
  const sqlite3_int64 total = w->buffered;
  w->buffered = 0;
  for (sqlite3_int64 done = 0; done < total; done += kWriteBytes) {
    const int amount = static_cast<int>(std::min(kWriteBytes, total - done));
    const int rc =
        w->real->pMethods->xWrite(w->real, w->buffer + done, amount, w->buffer_offset + done);
    if (rc != SQLITE_OK) return rc;
  }
  return SQLITE_OK;
}

int buffered_write(sqlite3_file* file, const void* data, int amount, sqlite3_int64 offset) {
  BufferedWal* w = wal(file);
  // A frame header says in its second word whether its frame commits (the database's size in
  // pages) or not (zero); the page that follows it completes the transaction.
  const bool completes_commit = w->commit_frame_next && amount != kFrameHeaderBytes;
  if (amount == kFrameHeaderBytes) {
    const auto* bytes = static_cast<const unsigned char*>(data);
    w->commit_frame_next = (bytes[4] | bytes[5] | bytes[6] | bytes[7]) != 0;
  } else {
    w->commit_frame_next = false;
  }
  if (w->buffer == nullptr) {
    // Allocated at the first write: a reading connection opens the WAL too, and never writes.
    w->buffer = static_cast<char*>(sqlite3_malloc64(kBufferBytes));
    if (w->buffer == nullptr) return SQLITE_IOERR_NOMEM;
  }
  const bool appends = w->buffered > 0 && offset == w->buffer_offset + w->buffered;
  if (!appends || w->buffered + amount > kBufferBytes) {
    // Not the next bytes (the WAL's header on a restart, a frame rewritten in place): what is
    // gathered goes first, in order.
    if (const int rc = flush(w); rc != SQLITE_OK) return rc;
    if (amount > kWriteBytes) return w->real->pMethods->xWrite(w->real, data, amount, offset);
    w->buffer_offset = offset;
  }
  std::memcpy(w->buffer + w->buffered, data, static_cast<std::size_t>(amount));
  w->buffered += amount;
  return completes_commit ? flush(w) : SQLITE_OK;
}

int close_wal(sqlite3_file* file) {
  BufferedWal* w = wal(file);
  const int flushed = flush(w);
  const int closed = w->real->pMethods->xClose(w->real);
  sqlite3_free(w->buffer);
  w->buffer = nullptr;
  return flushed != SQLITE_OK ? flushed : closed;
}

// Every other method: what is gathered is written first, then the default file does the rest.
int read_wal(sqlite3_file* file, void* data, int amount, sqlite3_int64 offset) {
  BufferedWal* w = wal(file);
  if (const int rc = flush(w); rc != SQLITE_OK) return rc;
  return w->real->pMethods->xRead(w->real, data, amount, offset);
}
int truncate_wal(sqlite3_file* file, sqlite3_int64 size) {
  BufferedWal* w = wal(file);
  if (const int rc = flush(w); rc != SQLITE_OK) return rc;
  return w->real->pMethods->xTruncate(w->real, size);
}
int sync_wal(sqlite3_file* file, int flags) {
  BufferedWal* w = wal(file);
  if (const int rc = flush(w); rc != SQLITE_OK) return rc;
  return w->real->pMethods->xSync(w->real, flags);
}
int wal_size(sqlite3_file* file, sqlite3_int64* size) {
  BufferedWal* w = wal(file);
  if (const int rc = flush(w); rc != SQLITE_OK) return rc;
  return w->real->pMethods->xFileSize(w->real, size);
}
int control_wal(sqlite3_file* file, int op, void* arg) {
  BufferedWal* w = wal(file);
  if (const int rc = flush(w); rc != SQLITE_OK) return rc;
  return w->real->pMethods->xFileControl(w->real, op, arg);
}
int lock_wal(sqlite3_file* file, int level) {
  return wal(file)->real->pMethods->xLock(wal(file)->real, level);
}
int unlock_wal(sqlite3_file* file, int level) {
  return wal(file)->real->pMethods->xUnlock(wal(file)->real, level);
}
int check_reserved_wal(sqlite3_file* file, int* out) {
  return wal(file)->real->pMethods->xCheckReservedLock(wal(file)->real, out);
}
int sector_size_wal(sqlite3_file* file) {
  return wal(file)->real->pMethods->xSectorSize(wal(file)->real);
}
int device_wal(sqlite3_file* file) {
  return wal(file)->real->pMethods->xDeviceCharacteristics(wal(file)->real);
}

// Version 1 methods: a WAL file is read and written, never memory-mapped or used for shared
// memory (the database file holds the wal-index).
const sqlite3_io_methods kWalMethods = {
    1,           close_wal,       read_wal,   buffered_write, truncate_wal,
    sync_wal,    wal_size,        lock_wal,   unlock_wal,     check_reserved_wal,
    control_wal, sector_size_wal, device_wal, nullptr,        nullptr,
    nullptr,     nullptr,         nullptr,    nullptr,
};

sqlite3_vfs* default_vfs(sqlite3_vfs* self) {
  return static_cast<sqlite3_vfs*>(self->pAppData);
}

int open_file(sqlite3_vfs* self, sqlite3_filename name, sqlite3_file* file, int flags,
              int* out_flags) {
  sqlite3_vfs* real_vfs = default_vfs(self);
  if ((flags & SQLITE_OPEN_WAL) == 0) {
    // Any other file is the default VFS's own, in place: its methods, not these.
    return real_vfs->xOpen(real_vfs, name, file, flags, out_flags);
  }
  BufferedWal* w = wal(file);
  w->base.pMethods = nullptr;
  w->real = reinterpret_cast<sqlite3_file*>(w + 1);
  w->buffer = nullptr;
  w->buffer_offset = 0;
  w->buffered = 0;
  w->commit_frame_next = false;
  const int rc = real_vfs->xOpen(real_vfs, name, w->real, flags, out_flags);
  // SQLite closes only a file whose pMethods is set: a failed open leaves nothing to undo.
  if (rc != SQLITE_OK) return rc;
  w->base.pMethods = &kWalMethods;
  return SQLITE_OK;
}

}  // namespace

const char* wal_write_buffer_vfs() {
  static sqlite3_vfs vfs;
  static std::once_flag once;
  std::call_once(once, [] {
    sqlite3_vfs* real = sqlite3_vfs_find(nullptr);
    vfs = *real;
    vfs.pNext = nullptr;
    vfs.zName = "leadline-wal-buffer";
    vfs.pAppData = real;
    vfs.szOsFile = static_cast<int>(sizeof(BufferedWal)) + real->szOsFile;
    vfs.xOpen = open_file;
    sqlite3_vfs_register(&vfs, 0);
  });
  return vfs.zName;
}

}  // namespace leadline::store::sqlite
