// The same JSON value the server's modules use, with its parser and writer (one copy, not two).
@_exported import CoordinatorJSON
