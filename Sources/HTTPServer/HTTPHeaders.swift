/// One header field, as sent.
package struct HTTPField: Sendable, Equatable {
    package let name: String
    package let value: String
}

/// An ordered list of header fields with case-insensitive lookup by name.
package struct HTTPHeaders: Sendable, Equatable, Sequence {
    // Fields are a struct of their own rather than a tuple: an array of tuples is destroyed (and
    // copied) through the runtime's generic tuple witnesses, one call per string of each field.
    package private(set) var fields: [HTTPField] = []

    package init(_ fields: [(String, String)] = []) {
        // With room for a few more: a response made with its fields gets its type, request id and
        // options set on the way out, and each one past the capacity copied the array.
        self.fields.reserveCapacity(fields.count + 4)
        for (name, value) in fields { self.fields.append(HTTPField(name: name, value: value)) }
    }

    /// Makes room for `count` fields, so that adding a request's or a response's usual fields
    /// does not grow the array one reallocation at a time.
    package mutating func reserveCapacity(_ count: Int) {
        fields.reserveCapacity(count)
    }

    // Lookups read the fields in place: a closure over them (`first(where:)`, `filter`), or the
    // array's subscript, handed over a copy of each field, both of its strings retained.

    /// The first value for `name`, compared case-insensitively.
    package subscript(name: String) -> String? {
        fields.withUnsafeBufferPointer { fields in
            for index in fields.indices where fields[index].name.caseInsensitiveEquals(name) {
                return fields[index].value
            }
            return nil
        }
    }

    /// Every value of `name`, in order, compared case-insensitively.
    package func values(_ name: String) -> [String] {
        fields.withUnsafeBufferPointer { fields in
            var values: [String] = []
            for index in fields.indices where fields[index].name.caseInsensitiveEquals(name) {
                values.append(fields[index].value)
            }
            return values
        }
    }

    /// Appends a field, keeping any existing ones of the same name.
    package mutating func add(_ name: String, _ value: String) {
        fields.append(HTTPField(name: name, value: value))
    }

    /// Replaces every field of `name` with one field.
    package mutating func set(_ name: String, _ value: String) {
        // `removeAll(where:)` made the array unique (a copy) even when no field matched.
        if self[name] != nil {
            fields.removeAll { $0.name.caseInsensitiveEquals(name) }
        }
        if fields.capacity == 0 { fields.reserveCapacity(4) }
        fields.append(HTTPField(name: name, value: value))
    }

    package func makeIterator() -> IndexingIterator<[HTTPField]> {
        fields.makeIterator()
    }

    package static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields == rhs.fields
    }
}

extension String {
    /// Field names are ASCII tokens: compared byte by byte, without lowercased copies.
    func caseInsensitiveEquals(_ other: String) -> Bool {
        // Most names differ in length, which answers at once (a native string knows its UTF-8 count).
        guard utf8.count == other.utf8.count else { return false }
        // Over the contiguous bytes: `utf8.elementsEqual` stepped through two index views, about
        // 5,000 instructions per event over the lookups of one request (callgrind). Native strings
        // lend theirs without a copy (`withUTF8` is mutating: it copied both strings first).
        let compared = utf8.withContiguousStorageIfAvailable { left in
            other.utf8.withContiguousStorageIfAvailable { right in Self.foldedEqual(left, right) }
        }
        if case let compared?? = compared { return compared }
        var (left, right) = (self, other)
        return left.withUTF8 { left in right.withUTF8 { right in Self.foldedEqual(left, right) } }
    }

    /// Equal bytes, ASCII letters compared without case.
    private static func foldedEqual(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Bool {
        guard left.count == right.count else { return false }
        for index in 0..<left.count where left[index] != right[index] {
            let folded = left[index] | 0x20
            guard folded == right[index] | 0x20, folded >= UInt8(ascii: "a"), folded <= UInt8(ascii: "z") else {
                return false
            }
        }
        return true
    }
}

extension StringProtocol {
    /// Without the spaces and tabs HTTP allows around a field value or a list element
    /// (RFC 9110 §5.6.3); Foundation's `trimmingCharacters` costs a bridge to `NSString` per call.
    package func trimmingOptionalWhitespace() -> Substring {
        let text = Substring(self)
        return text[text.utf8.rangeWithoutOptionalWhitespace()]
    }
}

extension BidirectionalCollection<UInt8> {
    /// The bytes' range without the spaces and tabs HTTP allows around a field value at either end
    /// (RFC 9110 §5.6.3). Inlinable, so that a caller's bytes in place are walked as such.
    @inlinable
    package func rangeWithoutOptionalWhitespace() -> Range<Index> {
        var start = startIndex
        var end = endIndex
        while start < end, self[start] == 0x20 || self[start] == 0x09 { start = index(after: start) }
        while start < end {
            let last = index(before: end)
            guard self[last] == 0x20 || self[last] == 0x09 else { break }
            end = last
        }
        return start..<end
    }
}
