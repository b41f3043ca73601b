#ifndef COORDINATORD_CMALLOC_SHIM_H
#define COORDINATORD_CMALLOC_SHIM_H
#include <malloc.h>

// glibc's `mallopt` and `mallinfo2` are declared in <malloc.h>, which Swift's Glibc module leaves out.

/// Turns off glibc's fast bins: a small block freed past the thread's cache is merged at once
/// instead of waiting in a bin for a later large allocation to merge it. Returns 1 on success.
static inline int coordinatord_turn_off_fast_bins(void) {
    return mallopt(M_MXFAST, 0);
}

/// The bytes held in fast bins, in all arenas.
static inline size_t coordinatord_fast_bin_bytes(void) {
    return mallinfo2().fsmblks;
}
#endif
