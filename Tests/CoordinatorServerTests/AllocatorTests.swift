import CMalloc
@testable import CoordinatorServer
import Foundation
import Testing

@Suite struct AllocatorTests {
    /// A binary built on CoordinatorServer (this test bundle is one) calls TCMalloc's `malloc`,
    /// not the C library's: linking it in is not enough unless it comes first in the lookup order.
    @Test func mallocIsTCMallocs() {
        #expect(Allocator.isTCMalloc, "malloc comes from \(Allocator.library)")
        #expect(String(cString: coordinatord_tcmalloc_version()).hasPrefix("gperftools"))
    }

    /// Memory from Foundation and the C library (allocated inside them) is freed by the same
    /// allocator that made it: a mismatch would crash here.
    @Test func memoryFromCLibrariesIsFreedByTheSameAllocator() throws {
        for _ in 0..<1_000 {
            let copy = try #require(strdup("allocated by strdup inside the C library"))
            free(copy)
        }
        let data = Data((0..<100_000).map { UInt8($0 & 0xff) })
        #expect(data.count == 100_000)
    }
}
