#ifndef COORDINATORD_CLZ4_SHIM_H
#define COORDINATORD_CLZ4_SHIM_H
#include <lz4.h>
#endif
