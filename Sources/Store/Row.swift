/// Typed reads of the current row's columns, by index from 0, on whichever backend ran the query.
/// Valid only inside the closure it is handed to.
public struct Row {
    private let reader: any RowReader

    package init(_ reader: any RowReader) {
        self.reader = reader
    }

    /// True when the column is NULL.
    public func isNull(_ column: Int32) -> Bool { reader.isNull(column) }
    /// The column as a 64-bit integer (0 when NULL).
    public func int64(_ column: Int32) -> Int64 { reader.int64(column) }
    /// The column as an `Int` (0 when NULL).
    public func int(_ column: Int32) -> Int { Int(reader.int64(column)) }
    /// The column as a `Double` (0 when NULL).
    public func double(_ column: Int32) -> Double { reader.double(column) }
    /// The column as text, read by its byte length ("" when NULL).
    public func string(_ column: Int32) -> String { reader.string(column) }
    /// The column as text, nil when NULL.
    public func optionalString(_ column: Int32) -> String? { isNull(column) ? nil : string(column) }
    /// The column's bytes (empty when NULL).
    public func blob(_ column: Int32) -> [UInt8] { reader.blob(column) }
}

/// What a backend implements to let `Row` read its current row.
package protocol RowReader {
    func isNull(_ column: Int32) -> Bool
    func int64(_ column: Int32) -> Int64
    func double(_ column: Int32) -> Double
    func string(_ column: Int32) -> String
    func blob(_ column: Int32) -> [UInt8]
}
