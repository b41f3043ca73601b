// A labelled case value of a field kind reads like a string where it is written:
// `.signIn(email: "ada@example.com", password: "…")`.

extension Identifier: ExpressibleByStringLiteral {
    /// The identifier `value`.
    public init(stringLiteral value: String) { self.init(wrappedValue: value) }
}

extension Password: ExpressibleByStringLiteral {
    /// The password `value`.
    public init(stringLiteral value: String) { self.init(wrappedValue: value) }
}
