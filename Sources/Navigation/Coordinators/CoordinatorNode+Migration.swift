extension CoordinatorNode {
    /// A coordinator of `type` from its `state` stored with schema `stored`, upgraded one schema
    /// version at a time by the type's `migrate`. Throws `schemaChanged` when there is no way up
    /// (a newer schema than this build's, or a step `migrate` does not cover).
    static func migrated(_ type: any Coordinator.Type, name: String, stored: Int, state: JSONValue) throws -> any Coordinator {
        let current = type.schemaVersion
        guard stored < current else { throw SnapshotError.schemaChanged(name, stored: stored, current: current) }
        var state = state
        for version in stored..<current {
            let next: JSONValue?
            do {
                next = try type.migrate(state, fromSchema: version)
            } catch {
                throw SnapshotError.unreadable("\(name)'s migration from schema \(version) failed: \(error)")
            }
            guard let next else { throw SnapshotError.schemaChanged(name, stored: stored, current: current) }
            state = next
        }
        func make<C: Coordinator>(_: C.Type) throws -> C { try JSONValueDecoder().decode(C.self, from: state) }
        do {
            return try make(type)
        } catch {
            throw SnapshotError.unreadable("\(name) migrated from schema \(stored) does not decode: \(error)")
        }
    }
}
