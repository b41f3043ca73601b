// `AppTester` and `ManualClock` live in CoordinatorFlowTesting (no HTTP server, nothing
// Linux-only); a test that imports this module sees them as before.
@_exported import CoordinatorFlowTesting
