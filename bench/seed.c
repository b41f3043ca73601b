/* Seeds a migrated coordinatord database with COUNT sessions, all with one snapshot template,
 * for the cold-start benchmark. Session n has id "cold<n>" and token "cold-token-<n>" (only its
 * SHA-256 is stored, as the server does).
 *
 * usage: seed DATABASE COUNT SNAPSHOT_FILE [FIRST]
 * FIRST (0 by default) numbers the first session, so a second run adds sessions to a seeded file. */
#include <sodium.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void check(int code, sqlite3 *db, const char *what) {
    if (code != SQLITE_OK && code != SQLITE_DONE) { fprintf(stderr, "%s: %s\n", what, sqlite3_errmsg(db)); exit(1); }
}

int main(int argc, char **argv) {
    if ((argc != 4 && argc != 5) || sodium_init() < 0) {
        fprintf(stderr, "usage: seed DATABASE COUNT SNAPSHOT_FILE [FIRST]\n");
        return 2;
    }
    long count = atol(argv[2]);
    long first = argc == 5 ? atol(argv[4]) : 0;
    FILE *file = fopen(argv[3], "rb");
    if (!file) { perror(argv[3]); return 1; }
    static unsigned char snapshot[1 << 20];
    size_t length = fread(snapshot, 1, sizeof snapshot, file);
    fclose(file);

    sqlite3 *db;
    check(sqlite3_open(argv[1], &db), db, "open");
    check(sqlite3_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=OFF; BEGIN", 0, 0, 0), db, "begin");
    sqlite3_stmt *insert;
    check(sqlite3_prepare_v2(db,
        "INSERT INTO sessions (id, token_hash, version, snapshot, user_id, created_at, last_used_at, expires_at, expires_hour) "
        "VALUES (?1, ?2, 1, ?3, NULL, ?4, ?4, ?5, ?5 / 3600)", -1, &insert, 0), db, "prepare");
    long now = (long)time(NULL);
    for (long n = first; n < first + count; n++) {
        char id[32], token[48];
        unsigned char hash[crypto_hash_sha256_BYTES];
        snprintf(id, sizeof id, "cold%ld", n);
        int token_length = snprintf(token, sizeof token, "cold-token-%ld", n);
        crypto_hash_sha256(hash, (unsigned char *)token, (unsigned long long)token_length);
        sqlite3_bind_text(insert, 1, id, -1, SQLITE_TRANSIENT);
        sqlite3_bind_blob(insert, 2, hash, sizeof hash, SQLITE_TRANSIENT);
        sqlite3_bind_blob(insert, 3, snapshot, (int)length, SQLITE_STATIC);
        sqlite3_bind_int64(insert, 4, now);
        sqlite3_bind_int64(insert, 5, now + 86400);
        check(sqlite3_step(insert), db, "insert");
        sqlite3_reset(insert);
    }
    sqlite3_finalize(insert);
    check(sqlite3_exec(db, "COMMIT; PRAGMA wal_checkpoint(TRUNCATE)", 0, 0, 0), db, "commit");
    sqlite3_close(db);
    return 0;
}
