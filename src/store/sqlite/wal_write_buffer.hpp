// A thin VFS over SQLite's default one that gathers the writes to a WAL file and hands them to
// the OS in one pwrite, where SQLite makes two per frame (its header, then its page).
#pragma once

namespace leadline::store::sqlite {

// The VFS's name, registered on first use; pass it to sqlite3_open_v2.
const char* wal_write_buffer_vfs();

}  // namespace leadline::store::sqlite
