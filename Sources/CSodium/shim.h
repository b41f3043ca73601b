#ifndef COORDINATORD_CSODIUM_SHIM_H
#define COORDINATORD_CSODIUM_SHIM_H
#include <sodium.h>
#endif
