#ifndef COORDINATORD_CMALLOC_SHIM_H
#define COORDINATORD_CMALLOC_SHIM_H
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <gperftools/tcmalloc.h>

/// The file of the library whose `malloc` this process calls (every library's calls go to the
/// first `malloc` in the global lookup order), or NULL when it cannot be told.
static inline const char *coordinatord_malloc_library(void) {
    void *symbol = dlsym(RTLD_DEFAULT, "malloc");
    Dl_info info;
    if (symbol == NULL || dladdr(symbol, &info) == 0) return NULL;
    return info.dli_fname;
}

/// The version of TCMalloc linked in, as it names it (for instance "gperftools 2.10").
static inline const char *coordinatord_tcmalloc_version(void) {
    return tc_version(NULL, NULL, NULL);
}
#endif
