// A stand-in for the names SwiftUI declares that a client module could collide with, so that a
// Linux build checks what an iOS shell's file importing SwiftUI and CoordinatorClient sees.
// (There is no SwiftUI on Linux; this module is named like it on purpose.)

/// SwiftUI's `@State`.
@propertyWrapper
public struct State<Value> {
    public var wrappedValue: Value
    public init(wrappedValue: Value) { self.wrappedValue = wrappedValue }
    public init(initialValue: Value) { self.wrappedValue = initialValue }
}

/// SwiftUI's `Tab` (iOS 18).
public struct Tab {
    public let title: String
    public init(_ title: String) { self.title = title }
}

/// SwiftUI's `View`.
public protocol View {}

/// SwiftUI's `Text`.
public struct Text: View {
    public let content: String
    public init(_ content: String) { self.content = content }
}
