#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A journal entry's snapshot kept as the difference from the entry before it. An event changes
/// one stretch of the JSON (a screen pushed or popped, a prop changed), so the delta is the
/// bytes between what both share at their start and at their end: often none, and a few
/// hundred for a pushed screen's props. Cheaper to make than LZ4 over the snapshot before as a
/// dictionary (a 16 KB table cleared and filled per event), for little more bytes.
///
/// Layout: the marker, the JSON's length, the fingerprint of the JSON it was made over, the
/// lengths of the shared start and end (4 bytes each, little-endian), then the stretch between,
/// as `pack` stores it when that is shorter, else as it is behind a zero byte.
extension StoredSnapshot {
    static let deltaMarker: UInt8 = 0x02
    private static let headerBytes = 17
    /// A stretch shorter than this is kept as it is: compressing it (LZ4 clears a 16 KB table
    /// first) would cost more than its bytes.
    private static let compressedFrom = 512

    /// True when `stored` is a delta (`packDelta`), which only the JSON before it reads back.
    static func isDelta(_ stored: [UInt8]) -> Bool { stored.first == deltaMarker }

    /// `json` as the difference from `base`, the JSON of the entry before.
    static func packDelta(_ json: [UInt8], over base: [UInt8]) -> [UInt8] {
        let start = sharedStart(json, base)
        let end = sharedEnd(json, base, notBefore: start)
        let stretch = Array(json[start..<(json.count - end)])
        var delta: [UInt8] = [deltaMarker]
        delta.reserveCapacity(headerBytes + 1 + stretch.count)
        for field in [UInt32(json.count), fingerprint(base), UInt32(start), UInt32(end)] {
            withUnsafeBytes(of: field.littleEndian) { delta.append(contentsOf: $0) }
        }
        if stretch.count >= compressedFrom, case let packed = pack(stretch), packed.count < stretch.count {
            delta += packed
        } else {
            delta.append(0)
            delta += stretch
        }
        return delta
    }

    /// The JSON of a stored snapshot; `base` is the JSON of the entry before, which a delta needs
    /// (a delta over other JSON, or without it, is unreadable). Throws when it is damaged.
    static func unpack(_ stored: [UInt8], base: [UInt8]?) throws(Unreadable) -> [UInt8] {
        guard isDelta(stored) else { return try unpack(stored) }
        guard let base else { throw Unreadable(description: "a delta without the snapshot before it") }
        guard stored.count > headerBytes else { throw Unreadable(description: "a delta without its header") }
        let field = { (index: Int) in
            stored[(1 + 4 * index)..<(5 + 4 * index)].reversed().reduce(0) { $0 << 8 | Int($1) }
        }
        let (length, start, end) = (field(0), field(2), field(3))
        guard UInt32(field(1)) == fingerprint(base) else { throw Unreadable(description: "a delta over another snapshot") }
        guard start + end <= base.count, start + end <= length, length <= maximumBytes else {
            throw Unreadable(description: "a delta that does not fit the snapshot before it")
        }
        let stretch = try self.stretch(of: stored)
        let json = base[..<start] + stretch + base[(base.count - end)...]
        guard json.count == length else { throw Unreadable(description: "a damaged delta") }
        return Array(json)
    }

    /// The bytes of JSON that `stored` holds itself: the whole JSON of a full snapshot, the
    /// changed stretch of a delta (what is shared with the entry before is in that entry); nil
    /// when damaged. What the journal's erasure searches.
    static func ownBytes(_ stored: [UInt8]) -> [UInt8]? {
        guard isDelta(stored) else { return try? unpack(stored) }
        guard stored.count > headerBytes else { return nil }
        return try? stretch(of: stored)
    }

    /// The changed stretch a delta (its header checked present) keeps, packed or as it is.
    private static func stretch(of delta: [UInt8]) throws(Unreadable) -> [UInt8] {
        let tail = Array(delta[headerBytes...])
        switch tail.first {
        case 0: return Array(tail.dropFirst())
        case lz4Marker: return try unpack(tail)
        default: throw Unreadable(description: "a delta of an unknown kind")
        }
    }

    /// The JSON of each snapshot of `run` (entries of one session in version order): a delta reads
    /// over the JSON of the entry before it when that is its version's predecessor. Nil where one
    /// does not read back, and so for the deltas after it.
    static func unpack(run: [(version: Int, snapshot: [UInt8])]) -> [[UInt8]?] {
        var jsons: [[UInt8]?] = []
        jsons.reserveCapacity(run.count)
        for (index, entry) in run.enumerated() {
            let base = index > 0 && run[index - 1].version == entry.version - 1 ? jsons[index - 1] : nil
            jsons.append(try? unpack(entry.snapshot, base: base))
        }
        return jsons
    }

    /// A hash of `bytes`, eight at a time (FNV-1a's steps over 64-bit words): tells a delta's base
    /// from other JSON. Not a defence against forgery: only the server writes the journal.
    static func fingerprint(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBytes { raw in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(raw.count)
            var offset = 0
            while offset + 8 <= raw.count {
                hash = (hash ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0x100_0000_01b3
                hash ^= hash >> 29
                offset += 8
            }
            while offset < raw.count {
                hash = (hash ^ UInt64(raw[offset])) &* 0x100_0000_01b3
                offset += 1
            }
            return UInt32(truncatingIfNeeded: hash ^ hash >> 32)
        }
    }

    /// How many bytes `a` and `b` share at their start: `memcmp` (vectorized) over blocks of
    /// `block` bytes to the first that differs, then eight bytes at a time within it.
    private static func sharedStart(_ a: [UInt8], _ b: [UInt8]) -> Int {
        a.withUnsafeBytes { a in
            b.withUnsafeBytes { b in
                let limit = min(a.count, b.count)
                var offset = 0
                while offset + block <= limit && memcmp(a.baseAddress! + offset, b.baseAddress! + offset, block) == 0 {
                    offset += block
                }
                while offset + 8 <= limit
                    && a.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                        == b.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                {
                    offset += 8
                }
                while offset < limit && a[offset] == b[offset] { offset += 1 }
                return offset
            }
        }
    }

    /// How many bytes `a` and `b` share at their end, leaving the first `notBefore` of each alone;
    /// compared as `sharedStart` does, from the end.
    private static func sharedEnd(_ a: [UInt8], _ b: [UInt8], notBefore start: Int) -> Int {
        a.withUnsafeBytes { a in
            b.withUnsafeBytes { b in
                let limit = min(a.count, b.count) - start
                var shared = 0
                while shared + block <= limit
                    && memcmp(a.baseAddress! + (a.count - shared - block), b.baseAddress! + (b.count - shared - block), block) == 0
                {
                    shared += block
                }
                while shared + 8 <= limit
                    && a.loadUnaligned(fromByteOffset: a.count - shared - 8, as: UInt64.self)
                        == b.loadUnaligned(fromByteOffset: b.count - shared - 8, as: UInt64.self)
                {
                    shared += 8
                }
                while shared < limit && a[a.count - shared - 1] == b[b.count - shared - 1] { shared += 1 }
                return shared
            }
        }
    }

    /// The bytes `sharedStart` and `sharedEnd` hand to `memcmp` at a time.
    private static let block = 128
}
