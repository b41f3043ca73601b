/* A closed-loop HTTP/1.1 load generator over keep-alive connections, epoll, one thread per
 * `--threads`. It measures every request's latency into a 1 µs histogram and prints one JSON line.
 *
 * Modes:
 *   fixed    POST BODY_FILE to PATH again and again (the baseline, and the wrk comparison)
 *   navigate drive signed-in sessions from SESSIONS_FILE through the app: each request is an
 *            event valid for the State that session last received (open a post, open its author,
 *            back, back, switch tab, switch back); a connection serves its own sessions in turn
 *   touch    GET each session of SESSIONS_FILE once (first touch after a restart)
 *   first    POST `logIn` from the first-run screen `s1` of each session of SESSIONS_FILE once
 *            (the first event of a stored session: it is restored, and past a cap another leaves)
 *
 * With LOADGEN_RATE=R in the environment the load is open-loop: all connections together send
 * R requests a second on a fixed schedule, and each latency counts from the request's scheduled
 * time, so time spent queued behind a slow answer is counted (no coordinated omission). A pause
 * of the generator itself would count too, so it records how late it sent each request past both
 * its time and its connection's last answer (`late_p99_ms`, `late_max_ms`): its waits have
 * nanosecond timeouts and 1 µs timer slack, so what lateness is left is the machine's, not the server's.
 *
 * usage: loadgen MODE PORT CONNECTIONS SECONDS THREADS ARG...
 *   fixed:    ARG = PATH BODY_FILE
 *   navigate: ARG = SESSIONS_FILE POST_ID USER_ID   (lines: "id token top topName")
 *   touch:    ARG = SESSIONS_FILE                   (lines: "id token")
 *   first:    ARG = SESSIONS_FILE                   (lines: "id token")  */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define BUCKETS 2000000 /* 1 µs each: up to 2 s */
#define LATE_BUCKETS 200000 /* the generator's lateness, 1 µs each: up to 200 ms */
#define BUFFER (1 << 20)

typedef struct { char id[64]; char token[96]; char top[32]; char name[48]; int phase; } Session;

typedef struct {
    int fd; char *in; size_t used; char out[4096]; size_t out_len, out_sent;
    double started; Session *session; int next_session; int *sessions; int session_count;
    double due; int waiting;  /* open loop: when the next request is scheduled, and whether it waits for it */
    double free_since;        /* open loop: when its last answer came (0 before the first) */
} Connection;

typedef struct {
    int index, connections; Connection *conns; uint64_t *histogram; uint64_t requests, non2xx, errors;
    double max_latency, max_at;  /* the slowest answer, and when its request was due (from the start) */
    uint64_t *late; double max_late;  /* open loop: how late the generator sent each request */
} Worker;

static double run_start;  /* when the generator started, for `max_at_s` */
static double interval;  /* open loop: seconds between one connection's scheduled requests; 0 = closed loop */
static int total_connections;
static const char *mode; static int port, seconds, total_threads; static char *path, *fixed_body; static size_t fixed_len;
static Session *sessions; static int session_count, post_id, user_id; static volatile int stop;
static int touch_next; static pthread_mutex_t touch_lock = PTHREAD_MUTEX_INITIALIZER;

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }

static int open_connection(void) {
    int fd = socket(AF_INET, SOCK_STREAM, 0), yes = 1;
    struct sockaddr_in address = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
    inet_pton(AF_INET, "127.0.0.1", &address.sin_addr);
    if (connect(fd, (struct sockaddr *)&address, sizeof address) != 0) { perror("connect"); exit(1); }
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
    return fd;
}

/* The event for a session's next step, from the screen on top (see the cycle above). */
static const char *navigation_event(Session *s, char *payload, size_t size) {
    static const char *expected[] = { "timeline", "post", "user", "post", "timeline", "profile" };
    payload[0] = 0;
    /* Signed-out sessions toggle between the first screen and the login screen. */
    if (!strcmp(s->name, "firstRun")) return "logIn";
    if (!strcmp(s->name, "login")) return "back";
    if (strcmp(s->name, expected[s->phase]) != 0) {  /* resynchronise from what is shown */
        if (!strcmp(s->name, "timeline")) s->phase = 0; else if (!strcmp(s->name, "profile")) s->phase = 5;
        else if (!strcmp(s->name, "user")) s->phase = 2; else s->phase = 3;
    }
    payload[0] = 0;
    switch (s->phase) {
    case 0: snprintf(payload, size, ",\"payload\":{\"postId\":%d}", post_id); return "openPost";
    case 1: snprintf(payload, size, ",\"payload\":{\"userId\":%d}", user_id); return "openUser";
    case 2: case 3: return "back";
    case 4: snprintf(payload, size, ",\"payload\":{\"tab\":\"profile\"}"); return "selectTab";
    default: snprintf(payload, size, ",\"payload\":{\"tab\":\"home\"}"); return "selectTab";
    }
}

static int prepare(Connection *c) {
    if (!strcmp(mode, "fixed")) {
        if (c->out_len == 0)  /* the same request every time: format it once */
            c->out_len = (size_t)snprintf(c->out, sizeof c->out,
            "POST %s HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\nContent-Length: %zu\r\n\r\n%s",
            path, fixed_len, fixed_body);
    } else if (!strcmp(mode, "navigate")) {
        c->session = &sessions[c->sessions[c->next_session]];
        c->next_session = (c->next_session + 1) % c->session_count;
        char payload[128], body[512];
        const char *event = navigation_event(c->session, payload, sizeof payload);
        int length = snprintf(body, sizeof body, "{\"screen\":\"%s\",\"event\":\"%s\"%s}", c->session->top, event, payload);
        c->out_len = (size_t)snprintf(c->out, sizeof c->out,
            "POST /v1/sessions/%s/events HTTP/1.1\r\nHost: bench\r\nAuthorization: Bearer %s\r\n"
            "Content-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", c->session->id, c->session->token, length, body);
    } else {
        pthread_mutex_lock(&touch_lock);
        int index = touch_next < session_count ? touch_next++ : -1;
        pthread_mutex_unlock(&touch_lock);
        if (index < 0) return 0;
        c->session = &sessions[index];
        if (!strcmp(mode, "first")) {
            static const char body[] = "{\"screen\":\"s1\",\"event\":\"logIn\"}";
            c->out_len = (size_t)snprintf(c->out, sizeof c->out,
                "POST /v1/sessions/%s/events HTTP/1.1\r\nHost: bench\r\nAuthorization: Bearer %s\r\n"
                "Content-Type: application/json\r\nContent-Length: %zu\r\n\r\n%s",
                c->session->id, c->session->token, sizeof body - 1, body);
        } else {
            c->out_len = (size_t)snprintf(c->out, sizeof c->out,
                "GET /v1/sessions/%s HTTP/1.1\r\nHost: bench\r\nAuthorization: Bearer %s\r\n\r\n", c->session->id, c->session->token);
        }
    }
    c->out_sent = 0;
    c->started = now();
    return 1;
}

static void absorb_state(Session *s, const char *body) {
    const char *top = strstr(body, "\"top\":\"");
    if (!top) return;
    top += 7;
    size_t n = strcspn(top, "\"");
    if (n >= sizeof s->top) return;
    memcpy(s->top, top, n); s->top[n] = 0;
    char needle[64];
    snprintf(needle, sizeof needle, "\"id\":\"%s\",\"name\":\"", s->top);
    const char *name = strstr(body, needle);
    if (!name) return;
    name += strlen(needle);
    n = strcspn(name, "\"");
    if (n < sizeof s->name) { memcpy(s->name, name, n); s->name[n] = 0; }
    s->phase = (s->phase + 1) % 6;
}

/* Returns 1 when a whole response is in; fills status and the body's start. */
static int complete(Connection *c, int *status, size_t *consumed, char **body) {
    c->in[c->used] = 0;
    char *end = strstr(c->in, "\r\n\r\n");
    if (!end) return 0;
    *status = atoi(c->in + 9);
    size_t length = 0;
    for (char *line = strstr(c->in, "\r\n"); line && line < end; line = strstr(line + 2, "\r\n")) {
        if (!strncasecmp(line + 2, "content-length:", 15)) length = (size_t)atol(line + 17);
    }
    size_t head = (size_t)(end - c->in) + 4;
    if (c->used < head + length) return 0;
    *consumed = head + length;
    *body = c->in + head;
    return 1;
}

static void send_all(Worker *w, Connection *c) {
    size_t sent = 0;
    while (sent < c->out_len) {
        ssize_t s = send(c->fd, c->out + sent, c->out_len - sent, MSG_NOSIGNAL);
        if (s <= 0) { w->errors++; break; }
        sent += (size_t)s;
    }
}

static void record(uint64_t *histogram, size_t buckets, double seconds) {
    size_t bucket = seconds > 0 ? (size_t)(seconds * 1e6) : 0;
    histogram[bucket < buckets ? bucket : buckets - 1]++;
}

/* Open loop: sends every waiting connection's request whose scheduled time has come, timed
 * from that time; returns the seconds until the next one is due (at most 0.1). */
static double send_due(Worker *w, int epoll, int *active) {
    double t = now(), next = t + 0.1;
    for (int i = 0; i < w->connections; i++) {
        Connection *c = &w->conns[i];
        if (!c->waiting) continue;
        if (stop) { c->waiting = 0; epoll_ctl(epoll, EPOLL_CTL_DEL, c->fd, NULL); (*active)--; continue; }
        if (c->due > t) { if (c->due < next) next = c->due; continue; }
        c->waiting = 0;
        if (!prepare(c)) { epoll_ctl(epoll, EPOLL_CTL_DEL, c->fd, NULL); (*active)--; continue; }
        c->started = c->due;
        c->due += interval;
        /* Late past its time and past its last answer: a slow answer holding the connection is the
         * server's, counted in the latency; this is only the generator's own delay. */
        double late = now() - (c->free_since > c->started ? c->free_since : c->started);
        record(w->late, LATE_BUCKETS, late);
        if (late > w->max_late) w->max_late = late;
        send_all(w, c);
    }
    return next - t;
}

static void *run(void *argument) {
    Worker *w = argument;
    int epoll = epoll_create1(0);
    double start = now();
    for (int i = 0; i < w->connections; i++) {
        Connection *c = &w->conns[i];
        c->fd = open_connection();
        c->in = malloc(BUFFER + 1);
        struct epoll_event event = { .events = EPOLLIN, .data.ptr = c };
        epoll_ctl(epoll, EPOLL_CTL_ADD, c->fd, &event);
        if (interval > 0) {  /* stagger the connections over one interval */
            c->due = start + interval * (w->index + (double)i * total_threads) / total_connections;
            c->waiting = 1;
        } else if (prepare(c)) {
            ssize_t n = send(c->fd, c->out, c->out_len, MSG_NOSIGNAL); c->out_sent = n > 0 ? (size_t)n : 0;
        }
    }
    struct epoll_event events[64];
    int active = w->connections;
    if (interval > 0) prctl(PR_SET_TIMERSLACK, 1000UL);  /* wake within 1 µs of a request's time, not 50 */
    while (active > 0) {  /* after `stop`, each connection still reads the answer it awaits */
        double wait = interval > 0 ? send_due(w, epoll, &active) : 0.1;
        if (active <= 0) break;
        /* A millisecond timeout would send each request up to 1 ms late, which the latency counts. */
        struct timespec timeout = { .tv_sec = 0, .tv_nsec = wait > 0 ? (long)(wait * 1e9) : 0 };
        int ready = epoll_pwait2(epoll, events, 64, &timeout, NULL);
        for (int i = 0; i < ready; i++) {
            Connection *c = events[i].data.ptr;
            ssize_t n = recv(c->fd, c->in + c->used, BUFFER - c->used, 0);
            if (n <= 0) { w->errors++; epoll_ctl(epoll, EPOLL_CTL_DEL, c->fd, NULL); active--; continue; }
            c->used += (size_t)n;
            int status; size_t consumed; char *body;
            if (!complete(c, &status, &consumed, &body)) continue;
            double latency = now() - c->started;
            record(w->histogram, BUCKETS, latency);
            if (latency > w->max_latency) { w->max_latency = latency; w->max_at = c->started - run_start; }
            w->requests++;
            if (status < 200 || status > 299) {
                if (w->non2xx++ < 3 && getenv("LOADGEN_DEBUG")) fprintf(stderr, "%d %.*s\n", status, 300, body);
            }
            else if (c->session && !strcmp(mode, "navigate")) absorb_state(c->session, body);
            if (status == 409 && c->session && !strcmp(mode, "navigate")) {  /* a client re-renders the state it carries */
                char *state = strstr(body, "\"state\":");
                if (state) { absorb_state(c->session, state); c->session->phase = (c->session->phase + 5) % 6; }
            }
            memmove(c->in, c->in + consumed, c->used - consumed);
            c->used -= consumed;
            if (interval > 0 && !stop) { c->waiting = 1; c->free_since = now(); continue; }  /* the next one goes at its time */
            if (stop || !prepare(c)) { epoll_ctl(epoll, EPOLL_CTL_DEL, c->fd, NULL); active--; continue; }
            send_all(w, c);
        }
    }
    return NULL;
}

/* The milliseconds below which `fraction` of a 1 µs histogram's counts lie. */
static double quantile(const uint64_t *histogram, size_t buckets, double fraction) {
    uint64_t total = 0, seen = 0;
    for (size_t b = 0; b < buckets; b++) total += histogram[b];
    uint64_t target = (uint64_t)(fraction * (double)total);
    for (size_t b = 0; b < buckets; b++) { seen += histogram[b]; if (seen > target) return b / 1000.0; }
    return 0;
}

static char *read_file(const char *name, size_t *length) {
    FILE *file = fopen(name, "rb");
    if (!file) { perror(name); exit(1); }
    fseek(file, 0, SEEK_END); long size = ftell(file); fseek(file, 0, SEEK_SET);
    char *data = malloc((size_t)size + 1);
    *length = fread(data, 1, (size_t)size, file);
    data[*length] = 0;
    fclose(file);
    return data;
}

static void read_sessions(const char *name) {
    FILE *file = fopen(name, "r");
    if (!file) { perror(name); exit(1); }
    int capacity = 1024;
    sessions = calloc((size_t)capacity, sizeof *sessions);
    char line[512];
    while (fgets(line, sizeof line, file)) {
        if (session_count == capacity) { capacity *= 2; sessions = realloc(sessions, (size_t)capacity * sizeof *sessions); }
        Session *s = &sessions[session_count];
        memset(s, 0, sizeof *s);
        if (sscanf(line, "%63s %95s %31s %47s", s->id, s->token, s->top, s->name) >= 2) session_count++;
    }
    fclose(file);
}

int main(int argc, char **argv) {
    if (argc < 7) { fprintf(stderr, "usage: loadgen MODE PORT CONNECTIONS SECONDS THREADS ARG...\n"); return 2; }
    mode = argv[1]; port = atoi(argv[2]);
    int connections = atoi(argv[3]); seconds = atoi(argv[4]); total_threads = atoi(argv[5]);
    if (!strcmp(mode, "fixed")) { path = argv[6]; fixed_body = read_file(argv[7], &fixed_len); }
    else { read_sessions(argv[6]); if (argc > 8) { post_id = atoi(argv[7]); user_id = atoi(argv[8]); } }
    int once = !strcmp(mode, "touch") || !strcmp(mode, "first");  /* each session once, then done */
    if (once && connections > session_count) connections = session_count;
    total_connections = connections;
    double rate = getenv("LOADGEN_RATE") ? atof(getenv("LOADGEN_RATE")) : 0;
    if (rate > 0) interval = connections / rate;

    Worker *workers = calloc((size_t)total_threads, sizeof *workers);
    Connection *all = calloc((size_t)connections, sizeof *all);
    if (!strcmp(mode, "navigate")) {  /* each connection owns every connections-th session */
        for (int i = 0; i < connections; i++) {
            all[i].sessions = malloc(sizeof(int) * (size_t)(session_count / connections + 1));
            for (int s = i; s < session_count; s += connections) all[i].sessions[all[i].session_count++] = s;
        }
    }
    pthread_t threads[64];
    double start = now();
    run_start = start;
    int offset = 0;
    for (int t = 0; t < total_threads; t++) {
        workers[t].index = t;
        workers[t].connections = connections / total_threads + (t < connections % total_threads);
        workers[t].conns = all + offset;
        offset += workers[t].connections;
        workers[t].histogram = calloc(BUCKETS, sizeof(uint64_t));
        workers[t].late = calloc(LATE_BUCKETS, sizeof(uint64_t));
        pthread_create(&threads[t], NULL, run, &workers[t]);
    }
    if (!once) { sleep((unsigned)seconds); stop = 1; }
    for (int t = 0; t < total_threads; t++) pthread_join(threads[t], NULL);
    double elapsed = now() - start;

    uint64_t requests = 0, non2xx = 0, errors = 0; double max = 0, max_at = 0, max_late = 0;
    uint64_t *histogram = calloc(BUCKETS, sizeof(uint64_t)), *late = calloc(LATE_BUCKETS, sizeof(uint64_t));
    for (int t = 0; t < total_threads; t++) {
        requests += workers[t].requests; non2xx += workers[t].non2xx; errors += workers[t].errors;
        if (workers[t].max_latency > max) { max = workers[t].max_latency; max_at = workers[t].max_at; }
        if (workers[t].max_late > max_late) max_late = workers[t].max_late;
        for (int b = 0; b < BUCKETS; b++) histogram[b] += workers[t].histogram[b];
        for (int b = 0; b < LATE_BUCKETS; b++) late[b] += workers[t].late[b];
    }
    if (!strcmp(mode, "navigate")) {  /* the sessions' last tops, so a later run starts where this one ended */
        FILE *file = fopen(argv[6], "w");
        for (int i = 0; i < session_count; i++)
            fprintf(file, "%s %s %s %s\n", sessions[i].id, sessions[i].token, sessions[i].top, sessions[i].name);
        fclose(file);
    }
    double values[3] = { quantile(histogram, BUCKETS, 0.5), quantile(histogram, BUCKETS, 0.9),
                         quantile(histogram, BUCKETS, 0.99) };
    printf("{\"requests\":%lu,\"seconds\":%.3f,\"rps\":%.1f,\"p50_ms\":%.3f,\"p90_ms\":%.3f,\"p99_ms\":%.3f,"
           "\"max_ms\":%.3f,\"non2xx\":%lu,\"errors\":%lu,\"late_p99_ms\":%.3f,\"late_max_ms\":%.3f,\"max_at_s\":%.3f}\n",
           (unsigned long)requests, elapsed, requests / elapsed, values[0], values[1], values[2], max * 1000,
           (unsigned long)non2xx, (unsigned long)errors, quantile(late, LATE_BUCKETS, 0.99), max_late * 1000, max_at);
    return 0;
}
