/// A string field an app marks secret (a one-time code, a card number): shown to clients as
/// plain text (unlike `@Password`, it is not masked), but, like a password, never kept in a
/// session's journal. Any character counts.
@propertyWrapper
public struct Secret: TextField {
    /// The secret.
    public var wrappedValue: String
    /// The field holding `wrappedValue`.
    public init(wrappedValue: String) { self.wrappedValue = wrappedValue }
    /// A string in the catalog.
    public static var fieldType: FieldType { .string }
    /// Any character; the `secret` rule is also what keeps it out of the journal.
    public static var textRule: TextRule { .secret }
}

extension Secret: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self.init(wrappedValue: value) }
}

extension FieldDeclaration {
    /// True for a field the journal never keeps: a password, or a field marked `@Secret`.
    public var isSecret: Bool { type == .password || text == .secret }
}
