import CMalloc

/// The C allocator's settings for a serving process.
enum AllocatorTuning {
    /// Turns off glibc's fast bins; `serve` calls it before it starts its threads.
    ///
    /// An event's memory is allocated on one thread and freed on another (libmicrohttpd's worker, a
    /// reader, the writer), so the freeing thread's cache overflows. The overflow waits in fast bins
    /// until a larger allocation merges them all (`malloc_consolidate`). Merged as they are freed
    /// instead, CPU per event was 0.93–0.95× with 16 connections (three alternated runs), and
    /// unchanged with the bench's 32 (1.016×, 10 rounds).
    static func apply() {
        _ = coordinatord_turn_off_fast_bins()
    }
}
