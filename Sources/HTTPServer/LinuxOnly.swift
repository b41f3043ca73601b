// The server runs on Linux only (see Package.swift): its HTTP layer uses epoll (libmicrohttpd's
// MHD_USE_EPOLL) and TCP_DEFER_ACCEPT. Said here at once, rather than by a missing symbol later.
#if !os(Linux)
#error("coordinatord's server builds and runs on Linux only (epoll, TCP_DEFER_ACCEPT); see Package.swift")
#endif
