/* The project's own durable baseline (issue 52): the least durable work per event an honest C
 * server does for the toggle load, written here and measured beside ../shared/bench's reference
 * in `make bench` (bench/durable.py). Every 200 promises what coordinatord's promises: the
 * session's new version is committed and synced (SQLite, WAL, synchronous=FULL) before the
 * answer goes out.
 *
 * HTTP: libmicrohttpd, epoll, a pool of worker threads. A worker that has an event suspends its
 * connection and queues the event; it never waits for a commit. One writer thread takes every
 * queued event, runs them in one transaction (per event: read the session's row, check token and
 * top screen, write the new version with a state blob of STATE_BYTES, and with JOURNAL_BYTES > 0 a
 * journal row of that size), commits (one sync for the batch), then resumes each connection; its
 * worker renders the answer (the writer, which every event waits for, does no more than it must).
 * A failed batch is rolled back and answered 503.
 *
 * The session's stack is s1 (firstRun) or s1 and sN (login); logIn on s1 pushes a new sN (ids are
 * never reused), back on sN pops it. A stale tap is 409 with the current state, a wrong token 401.
 *
 * Built with -DDURABLE_PG it is the same server on PostgreSQL (libpq; DATABASE is a postgresql://
 * URL): the writer sends each batch as one pipeline, BEGIN, one statement per event (an UPDATE
 * that checks token and top screen and writes the new version, with its journal row made from it
 * in the same statement), COMMIT, one sync: one round trip and one WAL flush per batch (fsync and
 * synchronous_commit as the cluster has them). An event that matched nothing is told apart after
 * the commit by a SELECT of its row (a stale tap, rare under the toggle load).
 *
 * Usage: durable_baseline PORT DATABASE SESSIONS STATE_BYTES ANSWER_BYTES JOURNAL_BYTES THREADS
 * Prints one line per session ("id token s1 firstRun"), then "ready"; on SIGTERM "commits N events M". */
#include <microhttpd.h>
#include <pthread.h>
#include <signal.h>
#ifdef DURABLE_PG
#include <libpq-fe.h>
#else
#include <sqlite3.h>
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

typedef struct Event {
    struct MHD_Connection *connection;
    char session[40], token[64];
    int screen;            /* the screen id the tap names (sN), 0 when it names none */
    int log_in;            /* logIn (1) or back (0) */
    int status;            /* the answer, once the writer decided it */
    long long version;     /* the session as the answer shows it (rendered by the worker, not the writer) */
    int depth, top;
    struct Event *next;
} Event;

typedef struct Request {   /* one connection's request, while it is read and answered */
    char body[512];
    size_t length;
    Event *event;
} Request;

static int state_bytes, answer_bytes, journal_bytes;
static unsigned char *state_blob, *journal_blob;
static Event *queue_head, *queue_tail;
static pthread_mutex_t queue_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t queue_ready = PTHREAD_COND_INITIALIZER;
static unsigned long long commits, events;


static void random_hex(char *out, size_t bytes) {
    unsigned char raw[32];
    if (getrandom(raw, bytes, 0) != (ssize_t)bytes) abort();
    for (size_t i = 0; i < bytes; i++) sprintf(out + 2 * i, "%02x", raw[i]);
}

/* The State as coordinatord shapes it (the fields both load generators read), padded to
 * ANSWER_BYTES, into `text` (4 KiB); returns its length. Run by the worker that answers. */
static int render(char *text, size_t size, const Event *e) {
    long long version = e->version;
    int depth = e->depth, top = e->top;
    int n = snprintf(text, size,
        "{\"id\":\"%s\",\"stack\":[{\"presentation\":\"root\",\"screens\":[{\"events\":[\"signUp\",\"logIn\"],\"id\":\"s1\","
        "\"name\":\"firstRun\",\"props\":{}}", e->session);
    if (depth == 2)
        n += snprintf(text + n, size - n,
            ",{\"events\":[\"submit\",\"signUp\",\"back\"],\"id\":\"s%d\",\"name\":\"login\",\"props\":{\"email\":\"\",\"error\":null}}", top);
    n += snprintf(text + n, size - n, "]}],\"top\":\"s%d\",\"user\":null,\"version\":%lld,\"pad\":\"", depth == 2 ? top : 1, version);
    if (answer_bytes - 2 > n && (size_t)answer_bytes < size - 3) {
        memset(text + n, ' ', (size_t)(answer_bytes - 2 - n));
        n = answer_bytes - 2;
    }
    n += snprintf(text + n, size - n, "\"}");
    return n;
}

/* The writer's next batch: every event queued, waiting for one if none is. */
static Event *take_batch(void) {
    pthread_mutex_lock(&queue_lock);
    while (!queue_head) pthread_cond_wait(&queue_ready, &queue_lock);
    Event *batch = queue_head;
    queue_head = queue_tail = NULL;
    pthread_mutex_unlock(&queue_lock);
    return batch;
}

/* Resumes the batch's connections: only once its COMMIT returned do the answers go out. */
static void answer_batch(Event *batch) {
    for (Event *e = batch, *next; e; e = next) {
        next = e->next;
        events++;
        MHD_resume_connection(e->connection);
    }
}

#ifdef DURABLE_PG
static PGconn *pg;

static void fail(const char *what) {
    fprintf(stderr, "%s: %s\n", what, PQerrorMessage(pg));
    exit(1);
}

/* One result of the pipeline, and the end-of-query NULL after it. */
static PGresult *next_result(void) {
    PGresult *result = PQgetResult(pg), *extra;
    while ((extra = PQgetResult(pg))) PQclear(extra);
    return result;
}

/* An event whose UPDATE matched nothing, told apart after the commit: its row as it is. */
static void classify(Event *e) {
    const char *values[1] = {e->session};
    PGresult *row = PQexecParams(pg, "SELECT token, version, depth, top FROM durable_sessions WHERE id = $1", 1, NULL, values,
                                 NULL, NULL, 0);
    if (PQresultStatus(row) != PGRES_TUPLES_OK) e->status = 503;
    else if (PQntuples(row) == 0) e->status = 404;
    else if (strcmp(PQgetvalue(row, 0, 0), e->token)) e->status = 401;
    else {
        e->version = atoll(PQgetvalue(row, 0, 1)); e->depth = atoi(PQgetvalue(row, 0, 2)); e->top = atoi(PQgetvalue(row, 0, 3));
        e->status = e->screen != (e->depth == 2 ? e->top : 1) ? 409 : 422;
    }
    PQclear(row);
}

static void *writer(void *unused) {
    (void)unused;
    for (;;) {
        Event *batch = take_batch();

        int ok = PQenterPipelineMode(pg) && PQsendQueryParams(pg, "BEGIN", 0, NULL, NULL, NULL, NULL, 0);
        for (Event *e = batch; ok && e; e = e->next) {
            char screen[16];
            snprintf(screen, sizeof screen, "%d", e->screen);
            const char *values[6] = {e->session, e->token, e->log_in ? "t" : "f", (const char *)state_blob, screen,
                                     (const char *)journal_blob};
            int lengths[6] = {0, 0, 0, state_bytes, 0, journal_bytes}, formats[6] = {0, 0, 0, 1, 0, 1};
            ok = PQsendQueryPrepared(pg, journal_bytes > 0 ? "event_journaled" : "event", journal_bytes > 0 ? 6 : 5, values,
                                     lengths, formats, 0);
        }
        ok = ok && PQsendQueryParams(pg, "COMMIT", 0, NULL, NULL, NULL, NULL, 0) && PQpipelineSync(pg);
        if (ok) {
            PGresult *begun = next_result();
            ok = PQresultStatus(begun) == PGRES_COMMAND_OK;
            PQclear(begun);
            for (Event *e = batch; e; e = e->next) {
                PGresult *r = next_result();
                if (PQresultStatus(r) != PGRES_TUPLES_OK) ok = 0;
                else if (PQntuples(r) == 1) {
                    e->status = 200;
                    e->version = atoll(PQgetvalue(r, 0, 0)); e->depth = atoi(PQgetvalue(r, 0, 1)); e->top = atoi(PQgetvalue(r, 0, 2));
                } else e->status = 0;
                PQclear(r);
            }
            PGresult *committed = next_result();
            ok = ok && PQresultStatus(committed) == PGRES_COMMAND_OK;
            PQclear(committed);
            PGresult *sync = PQgetResult(pg);  /* the pipeline's sync: no NULL after it */
            PQclear(sync);
        }
        PQexitPipelineMode(pg);
        if (!ok) {
            if (PQtransactionStatus(pg) != PQTRANS_IDLE) PQclear(PQexec(pg, "ROLLBACK"));
            for (Event *e = batch; e; e = e->next) e->status = 503;
        } else {
            commits++;
            for (Event *e = batch; e; e = e->next) if (e->status == 0) classify(e);
        }
        answer_batch(batch);
    }
    return NULL;
}

/* The table, SESSIONS fresh sessions (printed), and the event statements. */
static void open_store(const char *url, int sessions) {
    pg = PQconnectdb(url);
    if (PQstatus(pg) != CONNECTION_OK) fail("connect");
    PGresult *r = PQexec(pg,
        "SET client_min_messages = warning; DROP TABLE IF EXISTS durable_sessions, durable_journal;"
        "CREATE TABLE durable_sessions (id text PRIMARY KEY, token text NOT NULL, version bigint NOT NULL, depth int NOT NULL,"
        " top int NOT NULL, next int NOT NULL, state bytea NOT NULL) WITH (fillfactor = 80);"
        "CREATE TABLE durable_journal (id bigserial PRIMARY KEY, session_id text NOT NULL, version bigint NOT NULL,"
        " entry bytea NOT NULL);");
    if (PQresultStatus(r) != PGRES_COMMAND_OK) fail("schema");
    PQclear(r);
    /* Checks token, top screen and depth in its WHERE; $3 is logIn. */
    static const char update[] =
        "UPDATE durable_sessions SET version = version + 1, depth = CASE WHEN $3::boolean THEN 2 ELSE 1 END,"
        " top = CASE WHEN $3::boolean THEN next ELSE top END, next = CASE WHEN $3::boolean THEN next + 1 ELSE next END,"
        " state = $4::bytea WHERE id = $1 AND token = $2 AND $5::int = CASE WHEN depth = 2 THEN top ELSE 1 END"
        " AND depth = CASE WHEN $3::boolean THEN 1 ELSE 2 END RETURNING id, version, depth, top";
    char journaled[1024];
    snprintf(journaled, sizeof journaled,
             "WITH u AS (%s), j AS (INSERT INTO durable_journal (session_id, version, entry) SELECT id, version, $6::bytea FROM u)"
             " SELECT version, depth, top FROM u", update);
    char plain[1024];
    snprintf(plain, sizeof plain, "WITH u AS (%s) SELECT version, depth, top FROM u", update);
    PGresult *prepared = PQprepare(pg, "event", plain, 5, NULL);
    if (PQresultStatus(prepared) != PGRES_COMMAND_OK) fail("prepare");
    PQclear(prepared);
    prepared = PQprepare(pg, "event_journaled", journaled, 6, NULL);
    if (PQresultStatus(prepared) != PGRES_COMMAND_OK) fail("prepare");
    PQclear(prepared);
    PQclear(PQexec(pg, "BEGIN"));
    for (int i = 0; i < sessions; i++) {
        char id[23], token[44];
        random_hex(id, 11);
        random_hex(token, 21);
        const char *values[3] = {id, token, (const char *)state_blob};
        int lengths[3] = {0, 0, state_bytes}, formats[3] = {0, 0, 1};
        r = PQexecParams(pg, "INSERT INTO durable_sessions VALUES ($1, $2, 1, 1, 1, 2, $3::bytea)", 3, NULL, values, lengths,
                         formats, 0);
        if (PQresultStatus(r) != PGRES_COMMAND_OK) fail("insert");
        PQclear(r);
        printf("%s %s s1 firstRun\n", id, token);
    }
    r = PQexec(pg, "COMMIT");
    if (PQresultStatus(r) != PGRES_COMMAND_OK) fail("commit");
    PQclear(r);
}
#else
static sqlite3 *writer_db;
static sqlite3_stmt *select_row, *update_row, *insert_journal;

static void fail(const char *what) {
    fprintf(stderr, "%s: %s\n", what, sqlite3_errmsg(writer_db));
    exit(1);
}

/* One event inside the writer's transaction; 0 when a statement failed (the batch is rolled back). */
static int apply(Event *e) {
    sqlite3_reset(select_row);
    sqlite3_bind_text(select_row, 1, e->session, -1, SQLITE_STATIC);
    int step = sqlite3_step(select_row);
    if (step == SQLITE_DONE) { e->status = 404; return 1; }
    if (step != SQLITE_ROW) return 0;
    int token_ok = strcmp((const char *)sqlite3_column_text(select_row, 0), e->token) == 0;
    long long version = sqlite3_column_int64(select_row, 1);
    int depth = sqlite3_column_int(select_row, 2), top = sqlite3_column_int(select_row, 3), next = sqlite3_column_int(select_row, 4);
    sqlite3_reset(select_row);  /* the read ends before the write: no statement left open over the commit */
    if (!token_ok) { e->status = 401; return 1; }
    int shown = depth == 2 ? top : 1;
    if (e->screen != shown || (e->log_in ? depth != 1 : depth != 2)) {
        e->status = e->screen != shown ? 409 : 422;
        e->version = version; e->depth = depth; e->top = top;
        return 1;
    }
    if (e->log_in) { depth = 2; top = next++; } else { depth = 1; }
    version++;
    sqlite3_bind_int64(update_row, 1, version);
    sqlite3_bind_int(update_row, 2, depth);
    sqlite3_bind_int(update_row, 3, top);
    sqlite3_bind_int(update_row, 4, next);
    sqlite3_bind_blob(update_row, 5, state_blob, state_bytes, SQLITE_STATIC);
    sqlite3_bind_text(update_row, 6, e->session, -1, SQLITE_STATIC);
    int updated = sqlite3_step(update_row);
    sqlite3_reset(update_row);
    if (updated != SQLITE_DONE) return 0;
    if (journal_bytes > 0) {
        sqlite3_bind_text(insert_journal, 1, e->session, -1, SQLITE_STATIC);
        sqlite3_bind_int64(insert_journal, 2, version);
        sqlite3_bind_blob(insert_journal, 3, journal_blob, journal_bytes, SQLITE_STATIC);
        int inserted = sqlite3_step(insert_journal);
        sqlite3_reset(insert_journal);
        if (inserted != SQLITE_DONE) return 0;
    }
    e->status = 200;
    e->version = version; e->depth = depth; e->top = top;
    return 1;
}

static void *writer(void *unused) {
    (void)unused;
    for (;;) {
        Event *batch = take_batch();

        int ok = sqlite3_exec(writer_db, "BEGIN IMMEDIATE", 0, 0, 0) == SQLITE_OK;
        for (Event *e = batch; ok && e; e = e->next) ok = apply(e);
        ok = ok && sqlite3_exec(writer_db, "COMMIT", 0, 0, 0) == SQLITE_OK;
        if (!ok) {
            sqlite3_exec(writer_db, "ROLLBACK", 0, 0, 0);
            for (Event *e = batch; e; e = e->next) e->status = 503;
        } else {
            commits++;
        }
        answer_batch(batch);
    }
    return NULL;
}

/* The database file, SESSIONS fresh sessions (printed), and the event statements. */
static void open_store(const char *path, int sessions) {
    if (sqlite3_open(path, &writer_db) != SQLITE_OK) fail("open");
    if (sqlite3_exec(writer_db,
            "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;"
            "CREATE TABLE IF NOT EXISTS sessions (id TEXT PRIMARY KEY, token TEXT NOT NULL, version INTEGER NOT NULL,"
            " depth INTEGER NOT NULL, top INTEGER NOT NULL, next INTEGER NOT NULL, state BLOB NOT NULL);"
            "CREATE TABLE IF NOT EXISTS journal (id INTEGER PRIMARY KEY, session_id TEXT NOT NULL, version INTEGER NOT NULL,"
            " entry BLOB NOT NULL);", 0, 0, 0) != SQLITE_OK)
        fail("schema");
    sqlite3_stmt *insert;
    if (sqlite3_prepare_v2(writer_db, "INSERT INTO sessions VALUES (?1, ?2, 1, 1, 1, 2, ?3)", -1, &insert, 0) ||
        sqlite3_prepare_v2(writer_db, "SELECT token, version, depth, top, next FROM sessions WHERE id = ?1", -1, &select_row, 0) ||
        sqlite3_prepare_v2(writer_db, "UPDATE sessions SET version = ?1, depth = ?2, top = ?3, next = ?4, state = ?5 WHERE id = ?6",
                           -1, &update_row, 0) ||
        sqlite3_prepare_v2(writer_db, "INSERT INTO journal (session_id, version, entry) VALUES (?1, ?2, ?3)", -1, &insert_journal, 0))
        fail("prepare");
    sqlite3_exec(writer_db, "BEGIN", 0, 0, 0);
    for (int i = 0; i < sessions; i++) {
        char id[23], token[44];
        random_hex(id, 11);
        random_hex(token, 21);
        sqlite3_reset(insert);
        sqlite3_bind_text(insert, 1, id, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(insert, 2, token, -1, SQLITE_TRANSIENT);
        sqlite3_bind_blob(insert, 3, state_blob, state_bytes, SQLITE_STATIC);
        if (sqlite3_step(insert) != SQLITE_DONE) fail("insert");
        printf("%s %s s1 firstRun\n", id, token);
    }
    if (sqlite3_exec(writer_db, "COMMIT", 0, 0, 0) != SQLITE_OK) fail("commit");
}
#endif

static enum MHD_Result answer(struct MHD_Connection *connection, int status, const char *body, size_t length) {
    struct MHD_Response *response = MHD_create_response_from_buffer(length, (void *)body, MHD_RESPMEM_MUST_COPY);
    MHD_add_response_header(response, "Content-Type", status == 200 ? "application/json" : "application/problem+json");
    enum MHD_Result result = MHD_queue_response(connection, (unsigned int)status, response);
    MHD_destroy_response(response);
    return result;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
                              const char *version, const char *upload, size_t *upload_size, void **state) {
    (void)cls; (void)version;
    Request *request = *state;
    if (!request) {
        request = calloc(1, sizeof *request);
        *state = request;
        return MHD_YES;
    }
    if (request->event) {  /* resumed: the writer decided */
        Event *e = request->event;
        enum MHD_Result result;
        char text[4096];
        if (e->status == 200) {
            result = answer(connection, 200, text, (size_t)render(text, sizeof text, e));
        } else if (e->status == 409) {
            int n = snprintf(text, sizeof text, "{\"type\":\"urn:coordinatord:problem:stale-screen\",\"status\":409,\"state\":");
            n += render(text + n, sizeof text - (size_t)n - 2, e);
            text[n++] = '}';
            result = answer(connection, 409, text, (size_t)n);
        } else {
            static const char problem[] = "{\"type\":\"urn:coordinatord:problem:refused\",\"status\":0}";
            result = answer(connection, e->status, problem, sizeof problem - 1);
        }
        free(e);
        request->event = NULL;
        return result;
    }
    if (*upload_size) {
        size_t take = *upload_size < sizeof request->body - 1 - request->length ? *upload_size : sizeof request->body - 1 - request->length;
        memcpy(request->body + request->length, upload, take);
        request->length += take;
        *upload_size = 0;
        return MHD_YES;
    }
    if (!strcmp(method, "GET") && !strcmp(url, "/healthz")) return answer(connection, 200, "{}", 2);
    const char *prefix = "/v1/sessions/";
    const char *suffix = strstr(url, "/events");
    const char *authorization = MHD_lookup_connection_value(connection, MHD_HEADER_KIND, "Authorization");
    if (strcmp(method, "POST") || strncmp(url, prefix, strlen(prefix)) || !suffix || suffix[7] != 0 ||
        (size_t)(suffix - url - strlen(prefix)) >= sizeof ((Event *)0)->session || !authorization ||
        strncmp(authorization, "Bearer ", 7) || strlen(authorization + 7) >= sizeof ((Event *)0)->token)
        return answer(connection, 404, "{}", 2);
    Event *e = calloc(1, sizeof *e);
    memcpy(e->session, url + strlen(prefix), (size_t)(suffix - url - strlen(prefix)));
    strcpy(e->token, authorization + 7);
    request->body[request->length] = 0;
    const char *screen = strstr(request->body, "\"screen\":\"s");
    e->screen = screen ? atoi(screen + 11) : 0;
    e->log_in = strstr(request->body, "\"event\":\"logIn\"") != NULL;
    e->connection = connection;
    request->event = e;
    /* Suspended before the writer can see the event: the writer's resume always finds it suspended. */
    MHD_suspend_connection(connection);
    pthread_mutex_lock(&queue_lock);
    if (queue_tail) queue_tail->next = e; else queue_head = e;
    queue_tail = e;
    pthread_cond_signal(&queue_ready);
    pthread_mutex_unlock(&queue_lock);
    return MHD_YES;
}

static void completed(void *cls, struct MHD_Connection *connection, void **state, enum MHD_RequestTerminationCode code) {
    (void)cls; (void)connection; (void)code;
    free(*state);
    *state = NULL;
}

int main(int argc, char **argv) {
    if (argc != 8) {
        fprintf(stderr, "usage: %s PORT DATABASE SESSIONS STATE_BYTES ANSWER_BYTES JOURNAL_BYTES THREADS\n", argv[0]);
        return 2;
    }
    int port = atoi(argv[1]), sessions = atoi(argv[3]), threads = atoi(argv[7]);
    state_bytes = atoi(argv[4]); answer_bytes = atoi(argv[5]); journal_bytes = atoi(argv[6]);
    state_blob = calloc(1, (size_t)state_bytes + 1);
    journal_blob = calloc(1, (size_t)journal_bytes + 1);
    for (int i = 0; i < state_bytes; i++) state_blob[i] = (unsigned char)(i * 31);
    for (int i = 0; i < journal_bytes; i++) journal_blob[i] = (unsigned char)(i * 17);

    open_store(argv[2], sessions);

    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGTERM);
    sigaddset(&signals, SIGINT);
    pthread_sigmask(SIG_BLOCK, &signals, NULL);  /* every thread started from here leaves them to sigwait */
    pthread_t thread;
    pthread_create(&thread, NULL, writer, NULL);
    struct MHD_Daemon *daemon = MHD_start_daemon(
        MHD_USE_EPOLL_INTERNAL_THREAD | MHD_ALLOW_SUSPEND_RESUME, (uint16_t)port, NULL, NULL, handle, NULL,
        MHD_OPTION_THREAD_POOL_SIZE, (unsigned int)threads, MHD_OPTION_NOTIFY_COMPLETED, completed, NULL,
        MHD_OPTION_CONNECTION_LIMIT, (unsigned int)1024, MHD_OPTION_END);
    if (!daemon) { fprintf(stderr, "cannot listen on port %d\n", port); return 1; }
    printf("ready\n");
    fflush(stdout);
    int received;
    sigwait(&signals, &received);
    printf("commits %llu events %llu\n", commits, events);
    fflush(stdout);
    _exit(0);  /* connections may be suspended: the process ends without tearing the daemon down */
}
