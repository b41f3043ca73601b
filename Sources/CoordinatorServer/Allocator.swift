import CMalloc
import Logging

/// The allocator that serves the process. Importing `CMalloc` links TCMalloc into every binary
/// built on this module, ahead of the C library, so its `malloc` serves all allocations: Swift's,
/// SQLite's, libpq's and libmicrohttpd's.
enum Allocator {
    /// The file of the library whose `malloc` the process calls.
    static var library: String {
        coordinatord_malloc_library().map { String(cString: $0) } ?? "unknown"
    }

    /// True when that is TCMalloc's.
    static var isTCMalloc: Bool { library.contains("libtcmalloc") }

    /// Warns when a binary's link order left the C library's `malloc` first: the server runs, with
    /// the CPU per event of glibc's allocator.
    static func report(to logger: Logger) {
        guard !isTCMalloc else { return }
        logger.warning(
            "allocations go to \(library), not TCMalloc: link libtcmalloc_minimal before the C library (CPU per event is about 10 % higher)")
    }
}
