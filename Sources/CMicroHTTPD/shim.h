#ifndef COORDINATORD_CMICROHTTPD_SHIM_H
#define COORDINATORD_CMICROHTTPD_SHIM_H
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <netdb.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/uio.h>
#include <unistd.h>
#include <microhttpd.h>

// MHD_start_daemon, MHD_get_daemon_info and MHD_get_connection_info are variadic,
// which Swift cannot call; these fixed-signature wrappers are the only way in.

/// Starts a daemon bound to `host` (a name or a numeric IPv4/IPv6 address) and `port`
/// (0 picks a free one). Returns NULL if the host does not resolve or MHD refuses.
static inline struct MHD_Daemon *
coordinatord_mhd_start(const char *host, uint16_t port, unsigned int flags,
                       MHD_AccessHandlerCallback handler, void *handler_cls,
                       MHD_RequestCompletedCallback completed, void *completed_cls,
                       MHD_NotifyConnectionCallback notify, void *notify_cls,
                       void *(*uri_log)(void *cls, const char *uri, struct MHD_Connection *connection),
                       void *uri_log_cls,
                       const struct MHD_OptionItem *options)
{
    struct addrinfo hints, *found = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE;
    if (getaddrinfo(host, NULL, &hints, &found) != 0 || found == NULL) return NULL;
    struct sockaddr_storage address;
    memset(&address, 0, sizeof address);
    memcpy(&address, found->ai_addr, found->ai_addrlen);
    freeaddrinfo(found);
    if (address.ss_family == AF_INET6) {
        ((struct sockaddr_in6 *)&address)->sin6_port = htons(port);
        flags |= MHD_USE_IPv6;
    } else {
        ((struct sockaddr_in *)&address)->sin_port = htons(port);
    }
    return MHD_start_daemon(flags, port, NULL, NULL, handler, handler_cls,
                            MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&address,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_cls,
                            MHD_OPTION_NOTIFY_CONNECTION, notify, notify_cls,
                            MHD_OPTION_URI_LOG_CALLBACK, uri_log, uri_log_cls,
                            MHD_OPTION_ARRAY, options,
                            MHD_OPTION_END);
}

/// The port the daemon listens on (the real one when it was started with port 0).
static inline uint16_t coordinatord_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/// Makes the listening socket hand a connection over only once its first bytes have arrived (or
/// after `seconds` without any), so that the connection-notify callback, which runs before
/// libmicrohttpd first reads, can look at them. Linux's TCP_DEFER_ACCEPT; false if it failed.
static inline bool coordinatord_mhd_defer_accept(struct MHD_Daemon *daemon, int seconds) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_LISTEN_FD);
    if (info == NULL) return false;
    return setsockopt(info->listen_fd, IPPROTO_TCP, TCP_DEFER_ACCEPT, &seconds, sizeof seconds) == 0;
}

/// Writes the dotted decimal text of the IPv4 address at `address` (4 bytes, network order) into
/// `buffer` (16 bytes at least), as inet_ntop does: inet_ntop formats through sprintf, about
/// 1,700 instructions on every request.
static inline void coordinatord_ipv4_text(const void *address, char *buffer) {
    const unsigned char *octets = (const unsigned char *)address;
    char *end = buffer;
    for (int index = 0; index < 4; index++) {
        unsigned value = octets[index];
        if (index > 0) *end++ = '.';
        if (value >= 100) *end++ = (char)('0' + value / 100);
        if (value >= 10) *end++ = (char)('0' + value / 10 % 10);
        *end++ = (char)('0' + value % 10);
    }
    *end = 0;
}

/// Writes the client's numeric address into `buffer`; an empty string if unknown.
static inline void coordinatord_mhd_client_address(struct MHD_Connection *connection,
                                                   char *buffer, socklen_t length) {
    buffer[0] = 0;
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL) return;
    const struct sockaddr *address = info->client_addr;
    if (address->sa_family == AF_INET && length >= 16) {
        coordinatord_ipv4_text(&((const struct sockaddr_in *)address)->sin_addr, buffer);
    } else if (address->sa_family == AF_INET) {
        inet_ntop(AF_INET, &((const struct sockaddr_in *)address)->sin_addr, buffer, length);
    } else if (address->sa_family == AF_INET6) {
        inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)address)->sin6_addr, buffer, length);
    }
}

/// The connection's socket, or -1.
static inline int coordinatord_mhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

/// The pointer the connection-notify callback stored for this connection's socket, or NULL.
static inline void *coordinatord_mhd_socket_context(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info == NULL ? NULL : info->socket_context;
}
// Event streams leave libmicrohttpd once their head is due (HTTPServer's StreamPoller): these
// wrap epoll and sendmsg, whose structures (a packed epoll_event, iovec arrays) are awkward in Swift.

/// A new epoll set (close-on-exec), or -1.
static inline int coordinatord_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

/// A non-blocking eventfd to wake an epoll loop, or -1.
static inline int coordinatord_eventfd(void) { return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK); }

/// Wakes the loop that watches `fd` (an eventfd).
static inline void coordinatord_eventfd_signal(int fd) {
    uint64_t one = 1;
    ssize_t written = write(fd, &one, sizeof one);
    (void)written;
}

/// Watches `fd` edge-triggered for input, room for output and the peer's hang-up, tagged `token`.
static inline int coordinatord_epoll_add(int epoll, int fd, uint64_t token) {
    struct epoll_event event;
    memset(&event, 0, sizeof event);
    event.events = EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET;
    event.data.u64 = token;
    return epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event);
}

static inline int coordinatord_epoll_remove(int epoll, int fd) {
    return epoll_ctl(epoll, EPOLL_CTL_DEL, fd, NULL);
}

/// Waits for events (at most 64) and writes their tokens; the count, or -1 (errno).
static inline int coordinatord_epoll_wait(int epoll, uint64_t *tokens, int timeout) {
    struct epoll_event events[64];
    int count = epoll_wait(epoll, events, 64, timeout);
    for (int i = 0; i < count; i++) tokens[i] = events[i].data.u64;
    return count;
}

/// Sends three byte ranges in one call (a chunk's size line, its data, its end) without blocking
/// or raising SIGPIPE: the bytes sent, or -1 (errno).
static inline ssize_t coordinatord_send3(int fd, const void *a, size_t a_count, const void *b, size_t b_count,
                                         const void *c, size_t c_count) {
    struct iovec parts[3] = {{(void *)a, a_count}, {(void *)b, b_count}, {(void *)c, c_count}};
    struct msghdr message;
    memset(&message, 0, sizeof message);
    message.msg_iov = parts;
    message.msg_iovlen = 3;
    return sendmsg(fd, &message, MSG_NOSIGNAL | MSG_DONTWAIT);
}
#endif
