// CMicroHTTPD as well as Glibc: libmicrohttpd's header includes the socket headers (see FirstBytes).
import CMicroHTTPD
import CThreadName
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One thread with an epoll set over the sockets of event streams, which libmicrohttpd no longer
/// holds (see `OpenStreams`): it tells a stream when its socket has room again or its peer sent
/// something or left. Each socket is watched edge-triggered and tagged with its stream's token.
final class StreamPoller: Sendable {
    private let epoll: Int32
    private let wake: Int32
    private let stopped = Atomic<Bool>(false)

    /// - Parameter ready: called on the poller's thread with the token of a socket that has news.
    init(ready: @escaping @Sendable (UInt64) -> Void) {
        epoll = coordinatord_epoll_create()
        wake = coordinatord_eventfd()
        // Token 0 is the wake-up descriptor: `stop` writes to it.
        _ = coordinatord_epoll_add(epoll, wake, 0)
        // The thread holds the poller until it stops, so the descriptors outlive every call on them.
        let thread = Thread { [self] in
            coordinatord_name_this_thread("http-streams")
            var tokens = [UInt64](repeating: 0, count: 64)
            while !stopped.load(ordering: .acquiring) {
                let count = coordinatord_epoll_wait(epoll, &tokens, -1)
                guard count > 0 else { continue }  // EINTR
                for token in tokens[..<Int(count)] where token != 0 { ready(token) }
            }
        }
        thread.start()
    }

    deinit {
        close(epoll)
        close(wake)
    }

    /// Watches `socket` for `token`; false if epoll refused it.
    func watch(_ socket: Int32, token: UInt64) -> Bool {
        coordinatord_epoll_add(epoll, socket, token) == 0
    }

    /// Stops watching `socket` (call before closing it).
    func forget(_ socket: Int32) {
        _ = coordinatord_epoll_remove(epoll, socket)
    }

    /// Ends the thread (the descriptors close when the last reference goes).
    func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        coordinatord_eventfd_signal(wake)
    }
}
