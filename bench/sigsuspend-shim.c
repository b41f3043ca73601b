/* For bench/callgrind.py: valgrind 3.19 writes into the signal mask given to rt_sigsuspend, and
 * libdispatch's main thread passes a read-only one (valgrind then dies of SIGSEGV). Preloaded,
 * this passes a writable copy. */
#define _GNU_SOURCE
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

int sigsuspend(const sigset_t *mask) {
    sigset_t copy = *mask;
    return (int)syscall(SYS_rt_sigsuspend, &copy, _NSIG / 8);
}
