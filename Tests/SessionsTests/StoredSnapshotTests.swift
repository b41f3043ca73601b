import Navigation
import Store
import Testing

@testable import Sessions

/// Snapshots are stored compressed; what comes back is the same JSON, and damage is reported,
/// never expanded into memory or passed on as if it were a snapshot.
@Suite struct StoredSnapshotTests {
    static let json = Array(
        (#"{"coordinators":[],"layers":["# + String(repeating: #"{"text":"a post of ordinary length","id":1},"#, count: 80)
            + #"{}]}"#).utf8)

    @Test func aPackedSnapshotUnpacksToTheSameJSONAndIsSmaller() throws {
        let stored = StoredSnapshot.pack(Self.json)
        #expect(stored.first == 0x01)
        #expect(stored.count * 4 < Self.json.count)
        #expect(try StoredSnapshot.unpack(stored) == Self.json)
    }

    /// A small snapshot fits its page as it is: it is stored as its JSON, and read back as that.
    @Test func aSmallSnapshotIsStoredAsItsJSON() throws {
        let small = Array(Self.json.prefix(StoredSnapshot.packedFrom - 1))
        #expect(StoredSnapshot.pack(small) == small)
        #expect(try StoredSnapshot.unpack(StoredSnapshot.pack(small)) == small)
        #expect(StoredSnapshot.pack(Array(Self.json.prefix(StoredSnapshot.packedFrom))).first == StoredSnapshot.lz4Marker)
    }

    @Test func incompressibleJSONStillRoundTrips() throws {
        var generator = SystemRandomNumberGenerator()
        let noise = Array(("\"" + String((0..<3_000).map { _ in Character(UnicodeScalar(UInt8.random(in: 97...122, using: &generator))) }) + "\"").utf8)
        #expect(try StoredSnapshot.unpack(StoredSnapshot.pack(noise)) == noise)
    }

    /// A journal entry keeps the difference from the snapshot before it: a few bytes for a small
    /// change, read back only over that same snapshot.
    @Test func aDeltaIsSmallAndReadsBackOnlyOverItsBase() throws {
        let posts = (0..<80).map { #"{"text":"post \#($0 * 7919 % 1000) by \#($0 * 104_729 % 997)","id":\#($0)}"# }
        let base = Array((#"{"coordinators":[],"layers":["# + posts.joined(separator: ",") + "]}").utf8)
        var next = base
        next.replaceSubrange(20..<24, with: Array("TEXT".utf8))
        let delta = StoredSnapshot.packDelta(next, over: base)
        #expect(StoredSnapshot.isDelta(delta))
        #expect(delta.count * 10 < StoredSnapshot.pack(next).count, "\(delta.count) bytes")
        #expect(try StoredSnapshot.unpack(delta, base: base) == next)
        #expect(throws: StoredSnapshot.Unreadable.self) { try StoredSnapshot.unpack(delta, base: next) }
        #expect(throws: StoredSnapshot.Unreadable.self) { try StoredSnapshot.unpack(delta, base: nil) }
        #expect(throws: StoredSnapshot.Unreadable.self) { try StoredSnapshot.unpack(delta) }
        var truncated = delta
        truncated.removeLast(delta.count / 2)
        #expect(throws: StoredSnapshot.Unreadable.self) { try StoredSnapshot.unpack(truncated, base: base) }
        // A full snapshot reads back with or without a base.
        #expect(try StoredSnapshot.unpack(StoredSnapshot.pack(next), base: base) == next)
    }

    /// The shared start and end are found in blocks, then words, then bytes: for changes at
    /// every kind of place (block and word edges, the very ends, none at all, one side longer),
    /// the delta names exactly the stretch a byte-by-byte comparison finds, and reads back.
    @Test func aDeltaSkipsExactlyWhatBothShare() throws {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<400 {
            let base = (0..<Int.random(in: 0..<1_200, using: &random)).map { _ in UInt8.random(in: 97...100, using: &random) }
            var next = base
            if !next.isEmpty && Bool.random(using: &random) {
                let at = [0, 7, 8, 127, 128, 129, 255, 256, next.count / 2, next.count - 1].map { min($0, next.count - 1) }
                    .randomElement(using: &random)!
                let removed = Int.random(in: 0...min(20, next.count - at), using: &random)
                let inserted = (0..<Int.random(in: 0..<20, using: &random)).map { _ in UInt8.random(in: 97...101, using: &random) }
                next.replaceSubrange(at..<(at + removed), with: inserted)
            }
            var start = 0
            while start < min(base.count, next.count) && base[start] == next[start] { start += 1 }
            var end = 0
            while end < min(base.count, next.count) - start && base[base.count - end - 1] == next[next.count - end - 1] {
                end += 1
            }
            let delta = StoredSnapshot.packDelta(next, over: base)
            let field = { (index: Int) in delta[(1 + 4 * index)..<(5 + 4 * index)].reversed().reduce(0) { $0 << 8 | Int($1) } }
            #expect(field(2) == start && field(3) == end, "\(base.count) → \(next.count) bytes")
            #expect(try StoredSnapshot.unpack(delta, base: base) == next)
        }
    }

    /// Compression states are reused between snapshots: each block must still stand alone (read
    /// back with nothing compressed before it), and threads must not share one at a time.
    @Test func snapshotsPackedOneAfterAnotherOnManyThreadsEachReadBackAlone() async throws {
        let documents = (0..<6).map { index in
            Array((#"{"layers":["# + String(repeating: #"{"text":"post \#(index) of a thread","id":\#(index)},"#, count: 40 + index * 30) + "{}]}").utf8)
        }
        let failures = await withTaskGroup(of: Int.self) { group in
            for thread in 0..<4 {
                group.addTask {
                    var failures = 0
                    for round in 0..<300 {
                        let json = documents[(thread + round) % documents.count]
                        let stored = StoredSnapshot.pack(json)
                        if (try? StoredSnapshot.unpack(stored)) != json || stored.count * 4 >= json.count { failures += 1 }
                    }
                    return failures
                }
            }
            return await group.reduce(0, +)
        }
        #expect(failures == 0)
        // The same JSON packs to the same bytes whatever was packed before it.
        let first = StoredSnapshot.pack(documents[0])
        _ = StoredSnapshot.pack(documents[5])
        #expect(StoredSnapshot.pack(documents[0]) == first)
    }

    @Test func plainJSONFromEarlierBuildsIsReadAsItIs() throws {
        #expect(try StoredSnapshot.unpack(Self.json) == Self.json)
    }

    @Test func damageIsReportedNotExpanded() {
        let stored = StoredSnapshot.pack(Self.json)
        var truncated = stored
        truncated.removeLast(stored.count / 2)
        #expect(throws: StoredSnapshot.Unreadable.self) { try StoredSnapshot.unpack(truncated) }
        var longer = stored  // claims one byte more than the data holds
        longer[1] &+= 1
        #expect(throws: StoredSnapshot.Unreadable.self) { try StoredSnapshot.unpack(longer) }
        var huge = stored  // claims 4 GB
        huge.replaceSubrange(1..<5, with: [0xFF, 0xFF, 0xFF, 0xFF])
        #expect(throws: StoredSnapshot.Unreadable.self) { try StoredSnapshot.unpack(huge) }
        #expect(throws: StoredSnapshot.Unreadable.self) { try StoredSnapshot.unpack([0x01, 0x02]) }
    }

    @Test func aSessionStoredAsPlainJSONByAnEarlierBuildIsRestored() async throws {
        let service = try PreparationTests.service(gate: PreparationTests.Gate())
        let session = try await service.create(platform: .phone, clientAddress: "")
        _ = try await service.post(try PreparationTests.event("fast", session: session))
        let stored = try await service.read { [id = session.id, tables = service.tables] in
            try tables.loadSession(id: id, on: $0)?.snapshot ?? []
        }
        // This small snapshot is stored as its JSON by this build too; written as JSON below either way.
        let json = try StoredSnapshot.unpack(stored)
        try await service.write { [id = session.id] in
            _ = try $0.run("UPDATE sessions SET snapshot = ?2 WHERE id = ?1", [.text(id), .blob(json)])
        }
        try await service.withSession(id: session.id, token: session.token) { service.retire($0) }  // out of memory

        let answer = try await service.post(try PreparationTests.event("fast", session: session))
        #expect(answer.version == 3)
        let props = try JSONValue.parse(answer.body)["stack"]?.arrayValue?.first?["screens"]?.arrayValue?.first?["props"]
        #expect(props == ["value": 2])
    }
}
