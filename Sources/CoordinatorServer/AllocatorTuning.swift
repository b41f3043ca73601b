import CMalloc

/// The C allocator's settings for a serving process.
enum AllocatorTuning {
    /// Turns off glibc's fast bins; `serve` calls it before it starts its threads.
    ///
    /// An event's memory is allocated on one thread and freed on another (libmicrohttpd's worker, a
    /// reader, the writer), so the freeing thread's cache overflows. The overflow waits in fast bins
    /// until a larger allocation merges them all (`malloc_consolidate`). Merged as they are freed
    /// instead, the bench's CPU per event was 0.93× (two alternated runs of one build, 6 and 10 rounds).
    static func apply() {
        _ = coordinatord_turn_off_fast_bins()
    }
}
