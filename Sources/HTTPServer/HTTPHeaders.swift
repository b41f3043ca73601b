/// An ordered list of header fields with case-insensitive lookup by name.
package struct HTTPHeaders: Sendable, Equatable, Sequence {
    package private(set) var fields: [(name: String, value: String)] = []

    package init(_ fields: [(String, String)] = []) {
        self.fields = fields.map { (name: $0.0, value: $0.1) }
    }

    /// The first value for `name`, compared case-insensitively.
    package subscript(name: String) -> String? {
        fields.first { $0.name.caseInsensitiveEquals(name) }?.value
    }

    /// Every value of `name`, in order, compared case-insensitively.
    package func values(_ name: String) -> [String] {
        fields.filter { $0.name.caseInsensitiveEquals(name) }.map(\.value)
    }

    /// Appends a field, keeping any existing ones of the same name.
    package mutating func add(_ name: String, _ value: String) {
        fields.append((name: name, value: value))
    }

    /// Replaces every field of `name` with one field.
    package mutating func set(_ name: String, _ value: String) {
        fields.removeAll { $0.name.caseInsensitiveEquals(name) }
        fields.append((name: name, value: value))
    }

    package func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        fields.makeIterator()
    }

    package static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.elementsEqual(rhs.fields) { $0.name == $1.name && $0.value == $1.value }
    }
}

extension String {
    /// Field names are ASCII tokens: compared byte by byte, without lowercased copies.
    func caseInsensitiveEquals(_ other: String) -> Bool {
        // Most names differ in length, which answers at once (a native string knows its UTF-8 count).
        guard utf8.count == other.utf8.count else { return false }
        // Over the contiguous bytes: `utf8.elementsEqual` stepped through two index views, about
        // 5,000 instructions per event over the lookups of one request (callgrind).
        var (left, right) = (self, other)
        return left.withUTF8 { left in
            right.withUTF8 { right in
                for index in 0..<left.count where left[index] != right[index] {
                    let folded = left[index] | 0x20
                    guard folded == right[index] | 0x20, folded >= UInt8(ascii: "a"), folded <= UInt8(ascii: "z") else {
                        return false
                    }
                }
                return true
            }
        }
    }
}

extension StringProtocol {
    /// Without the spaces and tabs HTTP allows around a field value or a list element
    /// (RFC 9110 §5.6.3); Foundation's `trimmingCharacters` costs a bridge to `NSString` per call.
    package func trimmingOptionalWhitespace() -> Substring {
        let text = Substring(self)
        let bytes = text.utf8
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start = bytes.index(after: start) }
        while start < end {
            let last = bytes.index(before: end)
            guard bytes[last] == 0x20 || bytes[last] == 0x09 else { break }
            end = last
        }
        return text[start..<end]
    }
}
