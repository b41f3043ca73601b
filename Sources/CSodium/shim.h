#ifndef COORDINATORD_CSODIUM_SHIM_H
#define COORDINATORD_CSODIUM_SHIM_H
#include <sodium.h>
#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

// Lowers the scheduling priority of the calling thread (Linux: a thread is a task with its own
// nice value). The password-hashing threads use it so Argon2id yields the CPU to requests.
static inline int coordinatord_lower_thread_priority(int nice) {
#ifdef __linux__
    return setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), nice);
#else
    (void)nice;  // a flow test on a Mac: its hashes are tiny, nothing to yield to
    return 0;
#endif
}
#endif
