import Foundation

/// A coordinator in a session's tree, with its place in the tree.
struct CoordinatorNode: Sendable {
    let id: CoordinatorID
    /// The identifier its parent started it under (`registration`), unique among siblings.
    let key: String
    let parent: CoordinatorID?
    var children: [String: CoordinatorID] { didSet { snapshotHead = makeSnapshotHead() } }
    /// The stack it shows screens on when it has none on screen yet.
    var home: StackRef? { didSet { snapshotHead = makeSnapshotHead() } }
    /// True once any screen of its subtree was shown; such a coordinator is removed when
    /// its subtree has no screen left (no coordinator outlives its screens).
    var hasShownScreens: Bool { didSet { snapshotHead = makeSnapshotHead() } }
    /// The node's snapshot up to its state (`{"children":{…},…,"state":`), made again when one of
    /// the fields in it changes, which is rare: written afresh for every snapshot, its sorted
    /// children, literals and numbers cost about 2,000 instructions per node and event.
    /// Not part of equality.
    private var snapshotHead: [UInt8] = []
    /// The coordinator, behind a reference: an existential of a protocol that classes need not
    /// adopt made the whole node address-only, so that even reading its `parent` out of the
    /// tree's dictionary copied it, every field retained (callgrind).
    private var box: CoordinatorBox
    var coordinator: any Coordinator {
        get { box.coordinator }
        set { box = CoordinatorBox(newValue) }
    }
    /// `coordinator` encoded as JSON, kept while it does not change so that a snapshot
    /// re-encodes only the coordinators an event changed. Not part of equality.
    var encodedState: [UInt8]?

    init(
        id: CoordinatorID, key: String, parent: CoordinatorID?, children: [String: CoordinatorID], home: StackRef?,
        hasShownScreens: Bool, coordinator: any Coordinator, encodedState: [UInt8]?
    ) {
        (self.id, self.key, self.parent, self.children, self.home) = (id, key, parent, children, home)
        self.hasShownScreens = hasShownScreens
        box = CoordinatorBox(coordinator)
        self.encodedState = encodedState
        snapshotHead = makeSnapshotHead()
    }

    var typeName: String { type(of: coordinator).typeName }

    /// Takes `updated` as the coordinator, which was `previous` before it ran, re-encoding the
    /// state if it changed (or was never encoded). Changes nothing if that encoding throws.
    mutating func replaceCoordinator(with updated: any Coordinator, previous: any Coordinator) throws {
        if encodedState == nil || !updated.isEqual(to: previous) { encodedState = try Self.encode(updated) }
        coordinator = updated
    }

    /// A coordinator that fails to encode is a bug in that flow: it fails the event that made
    /// it (a `500` for that request), never the process.
    static func encode(_ coordinator: any Coordinator) throws -> [UInt8] {
        do {
            let bytes = try JSONValue.serialize(coordinator)
            // Kept for the coordinator's life in every resident session: no spare capacity.
            return bytes.withUnsafeBufferPointer { [UInt8]($0) }
        } catch {
            throw NavigationError("\(type(of: coordinator)) failed to encode: \(error)")
        }
    }
}

/// A node's coordinator, shared by the node's copies until one of them is given another.
private final class CoordinatorBox: Sendable {
    let coordinator: any Coordinator
    init(_ coordinator: any Coordinator) { self.coordinator = coordinator }
}

extension CoordinatorNode: Equatable {
    static func == (lhs: CoordinatorNode, rhs: CoordinatorNode) -> Bool {
        lhs.id == rhs.id && lhs.key == rhs.key && lhs.parent == rhs.parent && lhs.children == rhs.children
            && lhs.home == rhs.home && lhs.hasShownScreens == rhs.hasShownScreens
            && lhs.coordinator.isEqual(to: rhs.coordinator)
    }
}

extension CoordinatorNode: Codable {
    enum CodingKeys: String, CodingKey {
        case id, key, parent, children, home, shown, type, version, state
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id)
        key = try container.decode(String.self, forKey: .key)
        parent = try container.decodeIfPresent(Int.self, forKey: .parent)
        children = try container.decode([String: Int].self, forKey: .children)
        home = try container.decodeIfPresent(StackRef.self, forKey: .home)
        hasShownScreens = try container.decode(Bool.self, forKey: .shown)
        let typeName = try container.decode(String.self, forKey: .type)
        let version = try container.decode(Int.self, forKey: .version)
        guard let registry = decoder.userInfo[CoordinatorRegistry.userInfoKey] as? CoordinatorRegistry else {
            throw SnapshotError.unreadable("no coordinator registry")
        }
        guard let type = registry.types[typeName] else {
            throw SnapshotError.unknownCoordinator(typeName)
        }
        let coordinator =
            type.schemaVersion == version
            ? try type.init(from: container.superDecoder(forKey: .state))
            : try Self.migrated(
                type, name: typeName, stored: version, state: container.decode(JSONValue.self, forKey: .state))
        box = CoordinatorBox(coordinator)
        encodedState = try Self.encode(coordinator)
        snapshotHead = makeSnapshotHead()
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(key, forKey: .key)
        try container.encodeIfPresent(parent, forKey: .parent)
        try container.encode(children, forKey: .children)
        try container.encodeIfPresent(home, forKey: .home)
        try container.encode(hasShownScreens, forKey: .shown)
        try container.encode(typeName, forKey: .type)
        try container.encode(type(of: coordinator).schemaVersion, forKey: .version)
        try coordinator.encode(to: container.superEncoder(forKey: .state))
    }
}

extension CoordinatorNode {
    /// This node as the snapshot stores it (the keys `Codable` decodes), its state spliced in
    /// from `encodedState`.
    func writeSnapshot(to output: inout [UInt8]) throws {
        output.append(contentsOf: snapshotHead)
        output.append(contentsOf: try encodedState ?? Self.encode(coordinator))
        output.appendLiteral(#","type":"#)
        JSONValue.writeString(typeName, to: &output)
        output.appendLiteral(#","version":"#)
        output.appendDecimal(type(of: coordinator).schemaVersion)
        output.append(UInt8(ascii: "}"))
    }

    /// The snapshot's members of this node before its state, in key order, up to `"state":`.
    private func makeSnapshotHead() -> [UInt8] {
        var output: [UInt8] = []
        output.appendLiteral(#"{"children":{"#)
        for (index, child) in children.sorted(by: { $0.key < $1.key }).enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            JSONValue.writeString(child.key, to: &output)
            output.append(UInt8(ascii: ":"))
            output.appendDecimal(child.value)
        }
        output.append(UInt8(ascii: "}"))
        if let home {
            output.appendLiteral(#","home":"#)
            home.writeSnapshot(to: &output)
        }
        output.appendLiteral(#","id":"#)
        output.appendDecimal(id)
        output.appendLiteral(#","key":"#)
        JSONValue.writeString(key, to: &output)
        if let parent {
            output.appendLiteral(#","parent":"#)
            output.appendDecimal(parent)
        }
        if hasShownScreens { output.appendLiteral(#","shown":true,"state":"#) } else { output.appendLiteral(#","shown":false,"state":"#) }
        // Kept for the node's life in every resident session: no spare capacity.
        return output.withUnsafeBufferPointer { [UInt8]($0) }
    }
}

/// The coordinator types a snapshot may contain, by their registered names.
public struct CoordinatorRegistry: Sendable {
    package let types: [String: any Coordinator.Type]

    /// The registry of `types`, by their `typeName`.
    public init(_ types: [any Coordinator.Type]) {
        self.types = Dictionary(types.map { ($0.typeName, $0) }, uniquingKeysWith: { first, _ in first })
    }

    static let userInfoKey = CodingUserInfoKey(rawValue: "coordinatord.coordinatorRegistry")!
}
