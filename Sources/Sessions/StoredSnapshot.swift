import CLZ4

/// A snapshot as the `sessions` table stores it: LZ4-compressed, behind a marker byte and the
/// original length. Each event rewrites its session's row, and a signed-in session's snapshot of
/// ~4 KB of JSON spilled into an overflow page on every event; compressed (to a fifth, in ~3 µs)
/// the row fits in its table page, so an event writes one page to the log instead of two.
/// A snapshot under `packedFrom` bytes is stored as its JSON: it fits its page either way, and
/// compressing it cost more than the rest of writing its snapshot (a fresh LZ4 stream for ~500
/// bytes), and reading it back for the journal's difference a decompression more. Snapshots
/// stored as plain JSON are read as they are.
enum StoredSnapshot {
    /// The first byte of a compressed snapshot; a JSON document starts with `{`.
    static let lz4Marker: UInt8 = 0x01
    /// The smallest snapshot stored compressed.
    static let packedFrom = 1024
    /// No stored snapshot claims to expand past this, whatever its length field says.
    static let maximumBytes = 64 << 20

    struct Unreadable: Error, CustomStringConvertible {
        let description: String
    }

    /// `json` compressed, with the marker and its length in front; as it is under `packedFrom` bytes.
    static func pack(_ json: [UInt8]) -> [UInt8] {
        guard json.count >= packedFrom else { return json }
        let bound = Int(LZ4_compressBound(Int32(json.count)))
        // Not zero-filled first: LZ4 writes what is kept, and the rest is never part of the array.
        return [UInt8](unsafeUninitializedCapacity: 5 + bound) { stored, count in
            stored[0] = lz4Marker
            withUnsafeBytes(of: UInt32(json.count).littleEndian) { length in
                for index in 0..<4 { stored[1 + index] = length[index] }
            }
            let written = json.withUnsafeBufferPointer { input in
                input.withMemoryRebound(to: CChar.self) { source in
                    UnsafeMutableBufferPointer(rebasing: stored[5...]).withMemoryRebound(to: CChar.self) { target in
                        LZ4Streams.compress(source, into: target)
                    }
                }
            }
            // Cannot fail: the output has LZ4's bound for this input.
            precondition(written > 0 || json.isEmpty, "LZ4 compression failed")
            count = 5 + written
        }
    }

    /// The JSON of a stored snapshot; throws when it is damaged.
    static func unpack(_ stored: [UInt8]) throws(Unreadable) -> [UInt8] {
        guard !isDelta(stored) else { throw Unreadable(description: "a delta without the snapshot before it") }
        guard stored.first == lz4Marker else { return stored }
        guard stored.count >= 5 else { throw Unreadable(description: "a compressed snapshot without its length") }
        let length = stored[1..<5].reversed().reduce(0) { $0 << 8 | Int($1) }
        guard length <= maximumBytes else { throw Unreadable(description: "a compressed snapshot of \(length) bytes") }
        // Not zero-filled first: LZ4 writes every byte it reports, and only those are kept.
        let json = [UInt8](unsafeUninitializedCapacity: length) { output, count in
            let read = stored.withUnsafeBufferPointer { input in
                UnsafeBufferPointer(rebasing: input[5...]).withMemoryRebound(to: CChar.self) { source in
                    output.withMemoryRebound(to: CChar.self) { target in
                        LZ4_decompress_safe(source.baseAddress, target.baseAddress, Int32(source.count), Int32(length))
                    }
                }
            }
            count = max(0, Int(read))
        }
        guard json.count == length else { throw Unreadable(description: "a damaged compressed snapshot") }
        return json
    }
}
