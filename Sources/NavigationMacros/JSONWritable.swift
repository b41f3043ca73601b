import Navigation

/// Makes a struct write its canonical JSON itself (`JSONWritableObject`), without `Codable`'s
/// encoder: screen props are serialized on every event that shows a screen, and a struct of a few
/// fields costs about ten thousand instructions through an `Encoder`, a few hundred this way.
///
/// ```swift
/// @JSONWritable
/// public struct Props: Codable, Sendable, Hashable {
///     public var posts: [PostView]     // PostView is @JSONWritable too, or only Codable (slower)
///     public var nextCursor: Int?      // `null` when nil, as props always carry every field
/// }
/// ```
///
/// The bytes are those the struct's synthesized `Encodable` conformance gives: each stored
/// property (a property wrapper's storage) under its own name, keys sorted, an optional left out
/// when nil inside another value and written as `null` as a screen's props. A property whose type
/// is only `Encodable` is written through it. Compile errors: on anything but a struct; on a
/// struct that declares `CodingKeys` or `encode(to:)` (its `Encodable` conformance then writes
/// other bytes); on a stored property without a type annotation, a `lazy` one, or one inside `#if`.
@attached(extension, conformances: JSONWritableObject, names: named(writeJSON))
public macro JSONWritable() = #externalMacro(module: "NavigationMacrosPlugin", type: "JSONWritableMacro")
