#ifndef COORDINATORD_CSQLITE_SHIM_H
#define COORDINATORD_CSQLITE_SHIM_H
#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro over a cast pointer that Swift cannot import.
static inline sqlite3_destructor_type coordinatord_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

// sqlite3_db_config is variadic; wrap the one use we need.
static inline int coordinatord_sqlite_enable_defensive(sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)0);
}

// sqlite3_config is variadic too. Keeps every statement journal (the copy of the pages a
// savepoint changes, to roll it back) in memory instead of spilling it past 64 KiB to a temporary
// file. Only before SQLite is initialized (the process's first open); SQLITE_MISUSE after.
static inline int coordinatord_sqlite_keep_statement_journals_in_memory(void) {
    return sqlite3_config(SQLITE_CONFIG_STMTJRNL_SPILL, -1);
}

#ifdef __linux__
#include <sys/types.h>
// sync_file_range(2): <fcntl.h> declares it only under _GNU_SOURCE, which Swift's Glibc module is
// not built with; glibc exports it all the same.
extern int sync_file_range(int fd, __off64_t offset, __off64_t length, unsigned int flags);

// Writes out the dirty pages of [offset, offset + length) and waits for them (SYNC_FILE_RANGE_
// WAIT_BEFORE | WRITE | WAIT_AFTER). Syncs no metadata and flushes no device cache.
static inline int coordinatord_write_out_range(int fd, long long offset, long long length) {
    return sync_file_range(fd, offset, length, 1 | 2 | 4);
}
#else
// Elsewhere (a flow test on a Mac builds this module; no server runs there): nothing to write
// out ahead; the caller's sync writes everything.
static inline int coordinatord_write_out_range(int fd, long long offset, long long length) {
    (void)fd; (void)offset; (void)length;
    return 0;
}
#endif
#endif
