import Foundation

/// The State the peer answers with: the same shape the load generator reads from coordinatord
/// (`top`, and each screen's `id` followed by its `name`, which sorted keys give).
struct State: Codable, Sendable {
    var id: String
    var stack: [Layer]
    var top: String
    var user: Person?
    var version: Int
}

/// The root layer: two tabs, each a stack of screens.
struct Layer: Codable, Sendable {
    var presentation = "root"
    var selectedTab: String
    var tabs: [Tab]
}

struct Tab: Codable, Sendable {
    var name: String
    var screens: [Screen]
}

struct Screen: Codable, Sendable {
    var events: [String]
    var id: String
    var name: String
    var props: Props
}

/// Every screen's props in one type; absent ones are left out of the JSON.
struct Props: Codable, Sendable {
    var posts: [Post]? = nil
    var post: Post? = nil
    var user: Person? = nil
}

struct Person: Codable, Sendable {
    var id: Int
    var name: String
}

struct Post: Codable, Sendable {
    var author: Person
    var id: Int
    var text: String
}

/// What a client posts: the screen it acted on, the event and its payload.
struct EventBody: Decodable, Sendable {
    var screen: String
    var event: String
    var payload: Payload?
}

struct Payload: Decodable, Sendable {
    var postId: Int?
    var userId: Int?
    var tab: String?
}
