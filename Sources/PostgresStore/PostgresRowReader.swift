import CPostgres
import Foundation
import Store

/// Reads row `row` of a result fetched in binary format, decoding each column by its type.
struct PostgresRowReader: RowReader {
    let result: OpaquePointer
    let row: Int32

    func isNull(_ column: Int32) -> Bool { PQgetisnull(result, row, column) == 1 }

    func int64(_ column: Int32) -> Int64 {
        guard !isNull(column) else { return 0 }
        switch PQftype(result, column) {
        case PostgresType.int8: return bigEndian(column, as: Int64.self)
        case PostgresType.int4, PostgresType.oid: return Int64(bigEndian(column, as: Int32.self))
        case PostgresType.int2: return Int64(bigEndian(column, as: Int16.self))
        case PostgresType.bool: return bytes(column).first == 1 ? 1 : 0
        case PostgresType.float8, PostgresType.float4, PostgresType.numeric: return Int64(double(column))
        default: return Int64(string(column)) ?? 0
        }
    }

    func double(_ column: Int32) -> Double {
        guard !isNull(column) else { return 0 }
        switch PQftype(result, column) {
        case PostgresType.float8: return Double(bitPattern: UInt64(bitPattern: bigEndian(column, as: Int64.self)))
        case PostgresType.float4: return Double(Float(bitPattern: UInt32(bitPattern: bigEndian(column, as: Int32.self))))
        case PostgresType.numeric: return PostgresNumeric.double(bytes(column))
        case PostgresType.int8, PostgresType.int4, PostgresType.int2, PostgresType.oid, PostgresType.bool:
            return Double(int64(column))
        default: return Double(string(column)) ?? 0
        }
    }

    func string(_ column: Int32) -> String {
        guard !isNull(column) else { return "" }
        switch PQftype(result, column) {
        case PostgresType.int8, PostgresType.int4, PostgresType.int2, PostgresType.oid, PostgresType.bool:
            return String(int64(column))
        case PostgresType.float8, PostgresType.float4, PostgresType.numeric: return String(double(column))
        default:
            // text, varchar, name, json and the rest: their binary form is their UTF-8 text.
            let count = Int(PQgetlength(result, row, column))
            return PQgetvalue(result, row, column).withMemoryRebound(to: UInt8.self, capacity: count) {
                String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
            }
        }
    }

    func blob(_ column: Int32) -> [UInt8] { isNull(column) ? [] : bytes(column) }

    private func bytes(_ column: Int32) -> [UInt8] {
        let count = Int(PQgetlength(result, row, column))
        guard count > 0, let value = PQgetvalue(result, row, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: value, count: count))
    }

    private func bigEndian<T: FixedWidthInteger>(_ column: Int32, as type: T.Type) -> T {
        guard Int(PQgetlength(result, row, column)) == MemoryLayout<T>.size, let value = PQgetvalue(result, row, column)
        else { return 0 }
        return T(bigEndian: UnsafeRawPointer(value).loadUnaligned(as: T.self))
    }
}

/// The type OIDs the reader decodes (from PostgreSQL's `pg_type`; stable across releases).
enum PostgresType {
    static let bool: Oid = 16
    static let bytea: Oid = 17
    static let int8: Oid = 20
    static let int2: Oid = 21
    static let int4: Oid = 23
    static let oid: Oid = 26
    static let float4: Oid = 700
    static let float8: Oid = 701
    static let numeric: Oid = 1700
}

/// The binary form of `numeric` (what `sum` and `avg` of integers return): a digit count, a weight,
/// a sign and a scale, then base-10000 digits, each a big-endian 16-bit integer.
enum PostgresNumeric {
    static func double(_ bytes: [UInt8]) -> Double {
        func word(_ index: Int) -> Int {
            guard bytes.count >= 2 * index + 2 else { return 0 }
            return Int(Int16(bitPattern: UInt16(bytes[2 * index]) << 8 | UInt16(bytes[2 * index + 1])))
        }
        let (digits, weight, sign) = (word(0), word(1), UInt16(truncatingIfNeeded: word(2)))
        guard sign != 0xC000 else { return .nan }
        var value = 0.0
        for index in 0..<max(0, digits) {
            value += Double(word(4 + index)) * pow(10_000, Double(weight - index))
        }
        return sign == 0x4000 ? -value : value
    }
}
