#ifndef COORDINATORD_CSODIUM_SHIM_H
#define COORDINATORD_CSODIUM_SHIM_H
#include <sodium.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

// Lowers the scheduling priority of the calling thread (Linux: a thread is a task with its own
// nice value). The password-hashing threads use it so Argon2id yields the CPU to requests.
static inline int coordinatord_lower_thread_priority(int nice) {
    return setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), nice);
}
#endif
