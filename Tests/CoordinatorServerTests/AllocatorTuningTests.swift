import CMalloc
@testable import CoordinatorServer
import Glibc
import Testing

@Suite struct AllocatorTuningTests {
    /// Past the thread's cache (7 blocks of a size), freed small blocks would wait in fast bins.
    /// Other tests' threads may only empty the bins meanwhile: with the bins off, none can fill them.
    @Test func smallBlocksFreedAfterTheTuningSkipTheFastBins() throws {
        AllocatorTuning.apply()
        let before = coordinatord_fast_bin_bytes()
        let blocks = try (0..<64).map { _ in try #require(malloc(40)) }
        blocks.forEach { free($0) }
        #expect(coordinatord_fast_bin_bytes() <= before)
    }
}
