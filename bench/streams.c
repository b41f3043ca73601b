/* The other devices of `make bench`'s live section: many SSE streams read by one epoll thread.
 * It stands for phones and laptops elsewhere, so it must cost the shared cores as little as the
 * load generator does (the Python reader it replaces took a good part of a core at 5,000 frames/s).
 *
 * usage: streams PORT SESSIONS_FILE PER_SESSION [live]     (lines: "id token ...")
 *
 * Opens PER_SESSION streams on each session, prints "opened N" and reads until its standard input
 * ends. It prints one line per frame received, "SESSION_INDEX VERSION SECONDS" (SECONDS on
 * CLOCK_MONOTONIC, the clock of Python's time.monotonic): as frames arrive with `live` (the latency
 * run), else all at the end, so that a throughput run pays for no output. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

typedef struct { int fd, session, length; char line[32]; } Stream;
typedef struct { int session; long version; double at; } Arrival;

static Arrival *arrivals; static size_t arrival_count, arrival_capacity, arrivals_printed;

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }

/* Prints the arrivals not printed yet. */
static void print_arrivals(void) {
    for (; arrivals_printed < arrival_count; arrivals_printed++) {
        Arrival *a = &arrivals[arrivals_printed];
        printf("%d %ld %.6f\n", a->session, a->version, a->at);
    }
    fflush(stdout);
}

static void record(int session, long version, double at) {
    if (arrival_count == arrival_capacity) {
        arrival_capacity = arrival_capacity ? arrival_capacity * 2 : 65536;
        arrivals = realloc(arrivals, arrival_capacity * sizeof *arrivals);
        if (!arrivals) { perror("realloc"); exit(1); }
    }
    arrivals[arrival_count++] = (Arrival){session, version, at};
}

/* Opens one stream and reads its head (what came after it goes to `rest`); the socket, or -1 if refused. */
static int open_stream(int port, const char *id, const char *token, char *rest, int *rest_length) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons(port)};
    inet_pton(AF_INET, "127.0.0.1", &address.sin_addr);
    if (connect(fd, (struct sockaddr *)&address, sizeof address) != 0) { close(fd); return -1; }
    char request[512];
    int length = snprintf(request, sizeof request,
                          "GET /v1/sessions/%s/stream HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\n"
                          "Authorization: Bearer %s\r\n\r\n", id, token);
    if (write(fd, request, length) != length) { close(fd); return -1; }
    char head[8192]; int used = 0;
    char *end = NULL;
    while (!end) {
        ssize_t got = read(fd, head + used, sizeof head - 1 - used);
        if (got <= 0) { close(fd); return -1; }
        used += got; head[used] = 0;
        end = strstr(head, "\r\n\r\n");
        if (!end && used == (int)sizeof head - 1) { close(fd); return -1; }
    }
    if (strncmp(head, "HTTP/1.1 200", 12) != 0) { close(fd); return -1; }
    *rest_length = used - (int)(end + 4 - head);
    memcpy(rest, end + 4, *rest_length);
    return fd;
}

/* Feeds bytes to a stream's line scanner; records each `id: N` line (chunk-size lines and data
 * lines never start with "id: "). */
static void scan(Stream *stream, const char *bytes, size_t count, double at) {
    for (size_t i = 0; i < count; i++) {
        char c = bytes[i];
        if (c == '\n') {
            if (stream->length >= 4 && stream->length < (int)sizeof stream->line && !memcmp(stream->line, "id: ", 4)) {
                stream->line[stream->length] = 0;
                record(stream->session, strtol(stream->line + 4, NULL, 10), at);
            }
            stream->length = 0;
        } else {
            if (stream->length < (int)sizeof stream->line - 1) stream->line[stream->length] = c;
            if (stream->length < (int)sizeof stream->line) stream->length++;
        }
    }
}

int main(int argc, char **argv) {
    if (argc != 4 && !(argc == 5 && !strcmp(argv[4], "live"))) {
        fprintf(stderr, "usage: streams PORT SESSIONS_FILE PER_SESSION [live]\n");
        return 2;
    }
    int port = atoi(argv[1]), per_session = atoi(argv[3]);
    int live = argc == 5;
    FILE *file = fopen(argv[2], "r");
    if (!file) { perror(argv[2]); return 1; }
    int epoll = epoll_create1(EPOLL_CLOEXEC);
    struct epoll_event input = {.events = EPOLLIN, .data.ptr = NULL};
    epoll_ctl(epoll, EPOLL_CTL_ADD, 0, &input);
    char line[1024], id[128], token[256];
    int session = 0, opened = 0;
    while (fgets(line, sizeof line, file)) {
        if (sscanf(line, "%127s %255s", id, token) != 2) continue;
        for (int n = 0; n < per_session; n++) {
            char rest[8192]; int rest_length = 0;
            int fd = open_stream(port, id, token, rest, &rest_length);
            if (fd < 0) continue;
            Stream *stream = calloc(1, sizeof *stream);
            *stream = (Stream){.fd = fd, .session = session};
            scan(stream, rest, rest_length, now());
            struct epoll_event event = {.events = EPOLLIN, .data.ptr = stream};
            if (epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event) != 0) { close(fd); free(stream); continue; }
            opened++;
        }
        session++;
    }
    fclose(file);
    printf("opened %d\n", opened);
    fflush(stdout);
    struct epoll_event events[256];
    char buffer[65536];
    for (;;) {
        int count = epoll_wait(epoll, events, 256, -1);
        if (count < 0) { if (errno == EINTR) continue; perror("epoll_wait"); return 1; }
        double at = now();
        for (int i = 0; i < count; i++) {
            Stream *stream = events[i].data.ptr;
            if (!stream) goto done;  // standard input ended (or sent something): report
            ssize_t got = read(stream->fd, buffer, sizeof buffer);
            if (got > 0) scan(stream, buffer, got, at);
            else if (got == 0 || (errno != EAGAIN && errno != EINTR)) epoll_ctl(epoll, EPOLL_CTL_DEL, stream->fd, NULL);
        }
        if (live) print_arrivals();
        // A throughput run reads every millisecond, not at each frame: a device elsewhere wakes
        // on its own CPU, but loopback would charge each wake-up to the server's send.
        else usleep(1000);
    }
done:
    print_arrivals();
    return 0;
}
