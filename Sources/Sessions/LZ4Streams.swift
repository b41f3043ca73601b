import CLZ4
import Synchronization

/// LZ4 compression states kept between snapshots. `LZ4_compress_default` makes a 16 KB table on
/// its stack and zeroes it on every call (a few hundred cycles and a sweep through the L1 cache
/// per event; callgrind counts each byte, 19k of the 43k instructions it reported per snapshot);
/// a kept stream is reset with `LZ4_resetStream_fast`, which invalidates the old entries without
/// clearing the table. Each compression is still one independent block, read back by
/// `LZ4_decompress_safe` like any other.
enum LZ4Streams {
    /// A stream and the one thread using it: it leaves the pool for one compression.
    // @unchecked: the pointer is only touched by the thread that took it out of `idle`, under its lock.
    private struct Stream: @unchecked Sendable {
        let pointer: UnsafeMutablePointer<LZ4_stream_t>
    }

    private static let idle = Mutex<[Stream]>([])
    /// Streams kept idle at most (16 KB each): as many as threads compress at once, in practice.
    private static let kept = 8

    /// Compresses `source` into `target` as one block; the bytes written (0 if it did not fit).
    static func compress(_ source: UnsafeBufferPointer<CChar>, into target: UnsafeMutableBufferPointer<CChar>) -> Int {
        // `LZ4_createStream` fails only when `malloc` does, where Swift's own allocations trap too.
        let stream = idle.withLock { $0.popLast() } ?? Stream(pointer: LZ4_createStream()!)
        defer {
            let returned = idle.withLock { streams in
                guard streams.count < kept else { return false }
                streams.append(stream)
                return true
            }
            if !returned { LZ4_freeStream(stream.pointer) }
        }
        // Without a dictionary: the block depends on nothing compressed before it on this stream.
        LZ4_resetStream_fast(stream.pointer)
        return Int(
            LZ4_compress_fast_continue(
                stream.pointer, source.baseAddress, target.baseAddress, Int32(source.count), Int32(target.count), 1))
    }
}
