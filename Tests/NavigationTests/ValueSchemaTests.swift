import Foundation
import Navigation
import Testing

/// A screen whose props nest objects and lists, for the schemas a document is written from.
private enum Shelf: ScreenType {
    static let name = "shelf"
    struct Author: Codable, Sendable { var id: Int; var name: String }
    struct Book: Codable, Sendable {
        var title: String
        var author: Author
        var coAuthor: Author?
        var published: Date
        var tags: [String]
    }
    struct Props: Codable, Sendable {
        var books: [Book]
        var next: Int?
    }
    struct Pick: Codable, Sendable {
        var bookId: Int
        @Password var password: String
        var note: String?
    }
    enum Output: ScreenOutput {
        case pick(Pick), refresh
        static let events: [OutputEvent<Output>] = [.event("pick", Output.pick), .event("refresh", .refresh)]
    }
}

/// Props of every integer width, and a type that holds itself.
private enum Gauges: ScreenType {
    static let name = "gauges"
    final class Node: Codable, Sendable {
        let label: String
        let next: Node?
    }
    struct Props: Codable, Sendable {
        var a: Int8
        var b: Int16
        var c: UInt
        var d: UInt8
        var e: UInt16
        var f: UInt32
        var g: UInt64
        var chain: Node?
    }
}

/// A screen's props and payloads are read off its types to the bottom: each member's type,
/// optional members, nested objects named after their Swift types, and list items.
@Suite struct ValueSchemaTests {
    @Test func propsAndPayloadsAreTypedToTheBottom() throws {
        let app = NavigationApp(screens: [Shelf.self], coordinators: []) { _ in fatalError("not started") }
        let schemas = try #require(app.screens["shelf"]?.schemas)
        guard case .object(let propsType, let props, true) = schemas.props else { Issue.record("\(schemas.props)"); return }
        #expect(propsType.hasSuffix("Props"))
        #expect(props.map(\.name) == ["books", "next"])
        #expect(props.map(\.optional) == [false, true])
        #expect(props[1].schema == .field(.integer, .text))
        guard case .array(.object(let bookType, let book, true)) = props[0].schema else { Issue.record("\(props[0])"); return }
        #expect(bookType.hasSuffix("Book"))
        #expect(book.map(\.name) == ["title", "author", "coAuthor", "published", "tags"])
        #expect(book.map(\.optional) == [false, false, true, false, false])
        #expect(book[3].schema == .field(.dateTime, .text))
        #expect(book[4].schema == .array(.field(.string, .text)))
        guard case .object(let authorType, let author, true) = book[1].schema else { Issue.record("\(book[1])"); return }
        #expect(authorType.hasSuffix("Author") && author.map(\.name) == ["id", "name"])
        #expect(book[2].schema == book[1].schema)

        guard case .object(_, let pick, true) = schemas.payloads["pick"] else { Issue.record("\(schemas.payloads)"); return }
        #expect(pick.map(\.name) == ["bookId", "password", "note"])
        #expect(pick[1].schema == .field(.password, .secret))
        #expect(pick[2].optional)
        guard case .object(_, let refresh, true) = schemas.payloads["refresh"] else { Issue.record("\(schemas.payloads)"); return }
        #expect(refresh.isEmpty)
    }

    /// Probing an integer other than `Int`, `Int32` or `Int64`, or a class that holds itself,
    /// recursed until the stack overflowed: the app crashed as it was defined.
    @Test func everyIntegerIsAnIntegerAndAValueThatHoldsItselfIsFollowedOnlySoFar() throws {
        let app = NavigationApp(screens: [Gauges.self], coordinators: []) { _ in fatalError("not started") }
        let schemas = try #require(app.screens["gauges"]?.schemas)
        // The chain is followed until it is too deep, then it and the fields after it are unknown.
        guard case .object(_, let props, false) = schemas.props else { Issue.record("\(schemas.props)"); return }
        #expect(props.map(\.name) == ["a", "b", "c", "d", "e", "f", "g"])
        for member in props { #expect(member.schema == .field(.integer, .text), "\(member)") }
    }
}
