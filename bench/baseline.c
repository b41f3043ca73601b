/* The baseline: a minimal libmicrohttpd server that answers every request with a fixed JSON
 * body of a typical State's size, with the same threading options as coordinatord (a pool of
 * internal epoll threads). What coordinatord does beyond this is its own cost.
 *
 * usage: baseline PORT BODY_BYTES THREADS   (prints "listening PORT" when ready) */
#include <microhttpd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct MHD_Response *fixed;

static enum MHD_Result answer(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
                              const char *version, const char *upload, size_t *upload_size, void **context) {
    (void)cls; (void)url; (void)method; (void)version; (void)upload;
    if (*context == NULL) { *context = (void *)1; return MHD_YES; }  /* headers only */
    if (*upload_size != 0) { *upload_size = 0; return MHD_YES; }    /* discard the body */
    return MHD_queue_response(connection, 200, fixed);
}

int main(int argc, char **argv) {
    int port = argc > 1 ? atoi(argv[1]) : 8090;
    size_t size = argc > 2 ? (size_t)atol(argv[2]) : 2048;
    unsigned threads = argc > 3 ? (unsigned)atoi(argv[3]) : 2;
    char *body = malloc(size + 1);
    memset(body, ' ', size);
    memcpy(body, "{\"state\":\"", 10);
    body[size - 2] = '"'; body[size - 1] = '}'; body[size] = 0;
    fixed = MHD_create_response_from_buffer(size, body, MHD_RESPMEM_PERSISTENT);
    MHD_add_response_header(fixed, "Content-Type", "application/json");
    struct MHD_Daemon *daemon = MHD_start_daemon(
        MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME, (uint16_t)port, NULL, NULL,
        &answer, NULL, MHD_OPTION_THREAD_POOL_SIZE, threads, MHD_OPTION_CONNECTION_LIMIT, 1024,
        MHD_OPTION_CONNECTION_TIMEOUT, 30, MHD_OPTION_LISTEN_BACKLOG_SIZE, 1024, MHD_OPTION_END);
    if (daemon == NULL) { fprintf(stderr, "cannot listen on %d\n", port); return 1; }
    printf("listening %d\n", port);
    fflush(stdout);
    sigset_t set;
    sigemptyset(&set); sigaddset(&set, SIGTERM); sigaddset(&set, SIGINT);
    sigprocmask(SIG_BLOCK, &set, NULL);
    int received;
    sigwait(&set, &received);
    MHD_stop_daemon(daemon);
    return 0;
}
