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
#endif
