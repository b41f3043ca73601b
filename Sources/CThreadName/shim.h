#ifndef COORDINATORD_CTHREADNAME_SHIM_H
#define COORDINATORD_CTHREADNAME_SHIM_H
#ifdef __linux__
#include <sys/prctl.h>
#else
#include <pthread.h>
#endif

// Names the calling thread as `top -H`, `ps -L` and `perf` show it (at most 15 bytes are kept).
// Foundation's `Thread.name` does not reach the kernel on Linux, and `pthread_setname_np` and
// `prctl` are not visible from Swift (a GNU extension; a variadic function).
static inline void coordinatord_name_this_thread(const char *name) {
#ifdef __linux__
    prctl(PR_SET_NAME, name, 0, 0, 0);
#elif defined(__APPLE__)
    pthread_setname_np(name);  // a flow test on a Mac: the name its debugger shows
#endif
}
#endif
