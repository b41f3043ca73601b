#ifndef COORDINATORD_CPOSTGRES_SHIM_H
#define COORDINATORD_CPOSTGRES_SHIM_H

// libpq, PostgreSQL's client library (Debian: libpq-dev). Nothing in it is variadic, so Swift
// calls it directly; this header only gathers the include.
#include <libpq-fe.h>

#endif
