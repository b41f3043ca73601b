/// Why a snapshot could not be decoded.
public enum SnapshotError: Error, Sendable, Hashable, CustomStringConvertible {
    case unreadable(String)
    case unknownFormat(Int)
    case unknownCoordinator(String)
    case schemaChanged(String, stored: Int, current: Int)

    public var description: String {
        switch self {
        case .unreadable(let reason): "unreadable snapshot: \(reason)"
        case .unknownFormat(let format): "unknown snapshot format \(format)"
        case .unknownCoordinator(let name): "unknown coordinator type \(name)"
        case .schemaChanged(let name, let stored, let current):
            "\(name) was stored with schema \(stored), this build has \(current)"
        }
    }
}

/// A snapshot that no longer decodes was replaced by a fresh start of the root flow; log it.
public struct SnapshotFallback: Sendable, Hashable, CustomStringConvertible {
    /// Why the snapshot did not decode.
    public let reason: SnapshotError
    public var description: String { "snapshot fell back to a fresh start: \(reason)" }
}

/// The versioned JSON document a tree is stored as.
struct SnapshotDocument: Codable {
    static let currentFormat = 1

    var format: Int
    var platform: Platform
    var user: SessionUser?
    var layers: [Layer]
    var root: CoordinatorID
    var coordinators: [CoordinatorNode]
    var nextScreen: Int
    var nextCoordinator: Int
    var nextLayer: Int
}

/// Just the part of a snapshot that survives a fallback: who is signed in, on what platform.
private struct SnapshotHeader: Decodable {
    var platform: Platform?
    var user: SessionUser?
    var nextScreen: Int?
    var nextCoordinator: Int?
    var nextLayer: Int?

    /// A tree with nothing in it but the stored id counters, for a fresh start to continue from.
    var counters: NavigationTree {
        var tree = NavigationTree(platform: platform ?? .phone, user: user)
        tree.nextScreen = max(1, nextScreen ?? 1)
        tree.nextCoordinator = max(1, nextCoordinator ?? 1)
        tree.nextLayer = max(1, nextLayer ?? 1)
        return tree
    }
}

extension NavigationApp {
    /// Encodes `tree` as a versioned JSON document (the shape `SnapshotDocument` decodes).
    /// Written by hand over `JSONValue`, splicing in each coordinator's cached encoding,
    /// because it runs for every event inside the database writer.
    public func snapshot(_ tree: NavigationTree) throws -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(tree.estimatedJSONBytes)
        output.appendLiteral(#"{"coordinators":["#)
        // In id order, each node written where it is: sorting the nodes themselves copied each.
        var positions = tree.nodes.indices.map { (id: tree.nodes.values[$0].id, index: $0) }
        positions.sort { $0.id < $1.id }
        for (count, position) in positions.enumerated() {
            if count > 0 { output.append(UInt8(ascii: ",")) }
            try tree.nodes.values[position.index].writeSnapshot(to: &output)
        }
        output.appendLiteral(#"],"format":"#)
        output.appendDecimal(SnapshotDocument.currentFormat)
        output.appendLiteral(#","layers":["#)
        for (index, layer) in tree.layers.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            layer.writeSnapshot(to: &output)
        }
        output.appendLiteral(#"],"nextCoordinator":"#)
        output.appendDecimal(tree.nextCoordinator)
        output.appendLiteral(#","nextLayer":"#)
        output.appendDecimal(tree.nextLayer)
        output.appendLiteral(#","nextScreen":"#)
        output.appendDecimal(tree.nextScreen)
        output.appendLiteral(#","platform":"#)
        JSONValue.writeString(tree.platform.rawValue, to: &output)
        output.appendLiteral(#","root":"#)
        output.appendDecimal(tree.rootID)
        output.appendLiteral(#","user":"#)
        SessionUser.write(tree.user, to: &output)
        output.append(UInt8(ascii: "}"))
        return output
    }

    /// Decodes a snapshot into the tree it was made from.
    public func decodeSnapshot(_ bytes: [UInt8]) throws(SnapshotError) -> NavigationTree {
        var decoder = JSONValueDecoder()
        decoder.userInfo[CoordinatorRegistry.userInfoKey] = registry
        let document: SnapshotDocument
        let parsed: JSONValue
        do {
            // As deep as `JSONDecoder` allows: a coordinator's state is the app's to shape.
            parsed = try JSONParser.parse(bytes, maximumDepth: 512)
            document = try decoder.decode(SnapshotDocument.self, from: parsed)
        } catch let error as SnapshotError {
            throw error
        } catch let error as DecodingError {
            throw .unreadable(Self.cause(of: error, in: (try? JSONParser.parse(bytes, maximumDepth: 512)) ?? .null))
        } catch {
            throw .unreadable(String(describing: error))
        }
        guard document.format == SnapshotDocument.currentFormat else { throw .unknownFormat(document.format) }
        var tree = NavigationTree(platform: document.platform, user: document.user)
        tree.layers = document.layers
        tree.rootID = document.root
        tree.nodes = Dictionary(document.coordinators.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        tree.nextScreen = document.nextScreen
        tree.nextCoordinator = document.nextCoordinator
        tree.nextLayer = document.nextLayer
        guard tree.nodes[tree.rootID] != nil, tree.topLayerIndex != nil else { throw .unreadable("no root or no screen") }
        return tree
    }

    /// What a decoding failure names, for a person: the coordinator type whose stored state no
    /// longer decodes, the field and what is wrong (`Shelf.state.booksOpened: missing`).
    static func cause(of error: DecodingError, in document: JSONValue) -> String {
        let (path, problem): ([any CodingKey], String)
        switch error {
        case .keyNotFound(let key, let context): (path, problem) = (context.codingPath + [key], "missing")
        case .valueNotFound(_, let context): (path, problem) = (context.codingPath, "null")
        case .typeMismatch(let type, let context): (path, problem) = (context.codingPath, "not a \(type)")
        case .dataCorrupted(let context): (path, problem) = (context.codingPath, context.debugDescription)
        @unknown default: return String(describing: error)
        }
        var owner = "the snapshot"
        var rest = path[...]
        // `coordinators[i].state...`: named after the coordinator's type as stored.
        if path.count >= 2, path[0].stringValue == "coordinators", let index = path[1].intValue,
            let type = document["coordinators"]?.arrayValue?.dropFirst(index).first?["type"]?.stringValue
        {
            owner = type
            rest = path.dropFirst(2)
        }
        let field = rest.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        return "\(owner)\(field): \(problem)"
    }

    /// Restores a tree from its snapshot; a snapshot that no longer decodes (a coordinator's schema
    /// changed in a deploy) falls back to a fresh start of the root flow with the signed-in user
    /// kept, and says so. The fresh start continues the stored id counters, so no screen id is
    /// reused: a tap on a screen of the old tree is a stale tap (`409`), not another screen's event.
    public func restore(_ bytes: [UInt8], environment: Environment) throws -> (NavigationTree, SnapshotFallback?) {
        do {
            return (try decodeSnapshot(bytes), nil)
        } catch {
            let header = try? JSONValueDecoder().decode(
                SnapshotHeader.self, from: JSONParser.parse(bytes, maximumDepth: 512))
            let tree = try start(
                platform: header?.platform ?? .phone, user: header?.user, continuing: header?.counters,
                environment: environment)
            return (tree, SnapshotFallback(reason: error))
        }
    }
}
