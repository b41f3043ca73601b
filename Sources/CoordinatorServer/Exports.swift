// An app declares what it serves with `ServedApp` and imports only this module: the types moved
// to CoordinatorApp (so flow tests need no HTTP server) stay visible through it.
@_exported import CoordinatorApp
