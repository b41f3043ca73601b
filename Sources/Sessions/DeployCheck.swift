import Navigation
import SessionStorage
import Store

/// What `check-deploy` found: how each stored session would fare with this build, and where
/// replaying journaled events with this build navigates differently from what users saw.
package struct DeployCheckReport: Sendable {
    /// Sessions read.
    package var sessions = 0
    /// Sessions whose snapshot decodes as it is.
    package var unchanged = 0
    /// Sessions whose snapshot decodes after a coordinator's migration (`Coordinator.migrate`).
    package var migrated = 0
    /// Sessions that would fall back to a fresh start (or be stuck on a screen this build lacks), by reason.
    package var lost: [String: Int] = [:]
    /// A session lost for each reason, to look at (`GET /v1/operator/sessions/{id}` names the reason too).
    package var lostExample: [String: String] = [:]
    /// Sessions whose journal was replayed, and events replayed.
    package var replayedSessions = 0
    package var replayedEvents = 0
    /// Replayed events whose resulting stack (its screens and their events) differs, one line each.
    package var navigationDiffers: [String] = []
    /// Replayed events whose stack is the same but some props differ (data changed since, most often).
    package var propsOnly = 0
    /// Replayed events whose flow read or wrote data and whose stack differs, one line each: their
    /// replay ran over today's data, so the data may have changed since, not the build.
    package var differsOverData: [String] = []
    /// Replayed events whose model writes (statements and rows changed) differ from those the
    /// journal recorded, one line each (entries from before the journal recorded writes are not compared).
    package var writesDiffer: [String] = []
    /// Effects not run yet, by name; and those of them this build has no handler for (they would
    /// fail at their next run: a deploy that drops a handler while its effects wait).
    package var pendingEffects: [String: Int] = [:]
    package var unhandledEffects: [String: Int] = [:]
    /// Journaled events that cannot be replayed here, by reason.
    package var notReplayable: [String: Int] = [:]
    /// Sessions whose journal chain is damaged (an entry names itself or a newer one as the one
    /// before it), one line each: they are not replayed.
    package var damagedJournals: [String] = []

    /// Sessions that would be lost in all.
    package var lostCount: Int { lost.values.reduce(0, +) }

    /// The report as lines of text, for a person and for a CI log.
    package var text: String {
        var lines = [
            "sessions: \(sessions)", "decode unchanged: \(unchanged)", "decode after a migration: \(migrated)",
            "would be lost: \(lostCount)",
        ]
        lines += lost.sorted { $0.key < $1.key }.map {
            "  lost, \($0.key): \($0.value) (for example session \(lostExample[$0.key] ?? "?"))"
        }
        lines += [
            "replayed: \(replayedEvents) events of \(replayedSessions) sessions",
            "navigation differs: \(navigationDiffers.count)",
        ]
        lines += navigationDiffers.prefix(50).map { "  " + $0 }
        lines.append("props differ only: \(propsOnly)")
        if !differsOverData.isEmpty {
            lines.append("differs over today's data (the flow read or wrote data, which may have changed): \(differsOverData.count)")
            lines += differsOverData.prefix(50).map { "  " + $0 }
        }
        if !writesDiffer.isEmpty {
            lines.append("model writes differ: \(writesDiffer.count)")
            lines += writesDiffer.prefix(50).map { "  " + $0 }
        }
        lines += notReplayable.sorted { $0.key < $1.key }.map { "not replayable, \($0.key): \($0.value)" }
        if !damagedJournals.isEmpty {
            lines.append("damaged journals (not replayed): \(damagedJournals.count)")
            lines += damagedJournals.prefix(50).map { "  " + $0 }
        }
        lines.append("effects pending: \(pendingEffects.values.reduce(0, +))")
        lines += pendingEffects.sorted { $0.key < $1.key }.map { "  \($0.key): \($0.value)" }
        if !unhandledEffects.isEmpty {
            lines.append("effects pending that this build has no handler for (they would fail): \(unhandledEffects.values.reduce(0, +))")
            lines += unhandledEffects.sorted { $0.key < $1.key }.map { "  \($0.key): \($0.value)" }
        }
        return lines.joined(separator: "\n")
    }

    /// The report as one JSON object, for a pipeline (`check-deploy --json`).
    package var json: JSONValue {
        [
            "sessions": .int(sessions), "unchanged": .int(unchanged), "migrated": .int(migrated),
            "lost": .array(
                lost.sorted { $0.key < $1.key }.map {
                    ["reason": .string($0.key), "count": .int($0.value), "exampleSession": .string(lostExample[$0.key] ?? "")]
                }),
            "replayed": ["events": .int(replayedEvents), "sessions": .int(replayedSessions)],
            "navigationDiffers": .array(navigationDiffers.map(JSONValue.string)),
            "propsDifferOnly": .int(propsOnly),
            "differsOverData": .array(differsOverData.map(JSONValue.string)),
            "writesDiffer": .array(writesDiffer.map(JSONValue.string)),
            "notReplayable": .object(notReplayable.mapValues(JSONValue.int)),
            "damagedJournals": .array(damagedJournals.map(JSONValue.string)),
            "pendingEffects": .object(pendingEffects.mapValues(JSONValue.int)),
            "unhandledEffects": .object(unhandledEffects.mapValues(JSONValue.int)),
        ]
    }
}

/// The deploy check: run by a new build against the live database (on a read-only connection),
/// it decodes every stored snapshot with this build's coordinators and replays the journal of a
/// sample of sessions from their retained snapshots.
package struct DeployCheck: Sendable {
    let flows: FlowRunner
    /// Sessions read per query.
    let batchSize: Int

    package init(flows: FlowRunner, batchSize: Int = 500) {
        self.flows = flows
        self.batchSize = batchSize
    }

    private var app: NavigationApp { flows.app }
    private var tables: any SessionPersistence { flows.tables }

    /// Checks every session on `connection`, replaying the journals of the first `sample`. With
    /// `scratch` (a writable copy of the database, or a connection whose transactions the check
    /// rolls back), replayed flows run their model writes there, each session's in a transaction
    /// rolled back at its end, so an event that writes (a post, a borrow) is replayed too and the
    /// live data is never touched; without it, such events are counted as not replayable.
    /// - Parameter handled: the names of the effects this build has handlers for.
    package func run(
        on connection: any SQLConnection, sample: Int, scratch: (any SQLConnection)? = nil, handled: Set<String> = []
    ) async throws -> DeployCheckReport {
        var report = DeployCheckReport()
        for (name, count) in try tables.pendingEffectsByName(on: connection) {
            report.pendingEffects[name] = count
            if !handled.contains(name) { report.unhandledEffects[name] = count }
        }
        var after = ""
        while true {
            let rows = try tables.storedSessions(after: after, limit: batchSize, on: connection)
            for (id, stored, head) in rows {
                report.sessions += 1
                switch classify(stored) {
                case .unchanged: report.unchanged += 1
                case .migrated: report.migrated += 1
                case .lost(let reason):
                    report.lost[reason, default: 0] += 1
                    if report.lostExample[reason] == nil { report.lostExample[reason] = id }
                }
                if report.replayedSessions < sample, let head {
                    try await replay(session: id, head: head, on: connection, flowsOn: scratch, into: &report)
                }
            }
            guard rows.count == batchSize, let last = rows.last else { return report }
            after = last.id
        }
    }

    enum Outcome: Equatable {
        case unchanged, migrated
        case lost(String)
    }

    /// How this build would restore a stored snapshot.
    func classify(_ stored: [UInt8]) -> Outcome {
        guard let json = try? StoredSnapshot.unpack(stored) else { return .lost("unreadable snapshot") }
        do {
            _ = try app.decodeSnapshot(json)
        } catch {
            switch error {
            case .unknownCoordinator(let name): return .lost("unknown coordinator type \(name)")
            case .schemaChanged(let name, let stored, let current):
                return .lost("\(name) stored with schema \(stored), this build has \(current) and no migration from it")
            case .unknownFormat(let format): return .lost("unknown snapshot format \(format)")
            case .unreadable(let cause): return .lost("a field no longer decodes, \(cause)")
            }
        }
        let document = (try? JSONValue.parse(json)) ?? .null
        if let gone = Self.screenNames(document).first(where: { app.screens[$0] == nil }) {
            return .lost("screen \(gone) no longer exists")
        }
        let migrated = (document["coordinators"]?.arrayValue ?? []).contains { node in
            guard let name = node["type"]?.stringValue, let type = app.registry.types[name] else { return false }
            return node["version"]?.intValue != type.schemaVersion
        }
        return migrated ? .migrated : .unchanged
    }

    /// Replays session `id`'s journaled events (its newest entry is `head`), each from the snapshot before it.
    private func replay(
        session id: String, head: Int64, on connection: any SQLConnection, flowsOn scratch: (any SQLConnection)?,
        into report: inout DeployCheckReport
    ) async throws {
        // A walk stops where an entry names itself or a newer one as the one before it (a
        // damaged chain would loop): such a session is reported, not replayed.
        if let loop = try tables.journalLoop(from: head, on: connection) {
            report.damagedJournals.append(
                "session \(id): entry \(loop.id) names \(loop.previous) as the one before it (the chain loops)")
            return
        }
        let entries = try tables.replayableEntries(from: head, on: connection)
        guard entries.count > 1 else { return }
        report.replayedSessions += 1
        // The session's replayed writes go in one transaction of the scratch copy, rolled back
        // at its end: each session replays over the same data.
        if let scratch { try tables.beginScratch(on: scratch) }
        defer { if let scratch { tables.rollBackScratch(on: scratch) } }
        // Each entry's JSON, in version order: an entry may keep the difference from the one before.
        let jsons = StoredSnapshot.unpack(run: entries.map { ($0.version, $0.snapshot) })
        for index in entries.indices.dropFirst() where entries[index].versionBefore == entries[index - 1].version {
            let entry = entries[index]
            let payload = (try? JSONValue.parse(Array(entry.payloadText.utf8))) ?? .null
            // (start), (fallback): not events. An effect's result is: made again from its entry.
            let delivery = entry.event == EffectDelivery.eventName ? EffectDelivery(journaled: payload) : nil
            if entry.event.hasPrefix("("), delivery == nil { continue }
            guard JournalEntry.redacted(fromText: entry.redactedText).isEmpty else {
                report.notReplayable["secret or undeclared payload fields are not journaled", default: 0] += 1
                continue
            }
            guard let beforeJSON = jsons[index - 1], var tree = try? app.decodeSnapshot(beforeJSON),
                let sawJSON = jsons[index], let saw = try? JSONValue.parse(sawJSON)
            else {
                report.notReplayable["the snapshot before it does not decode", default: 0] += 1
                continue
            }
            // A `@Confidential` value the session held (a password's hash between registration
            // steps) is not in the journal: the flow would run without it.
            guard !ConfidentialRedaction.mayHoldSecrets(beforeJSON) else {
                report.notReplayable["its state held a @Confidential value, which the journal does not keep", default: 0] += 1
                continue
            }
            let event =
                delivery.map(IncomingEvent.init(delivering:))
                ?? IncomingEvent(screen: ScreenID(entry.screen), name: entry.event, payload: payload)
            let place = "session \(id) v\(entry.versionBefore)→v\(entry.version) \(entry.event)"
            let noting = WriteRecorder(scratch ?? connection)
            do {
                let info = RequestInfo(clientAddress: "", now: entry.at)
                let snapshot = try await flows.withPreparations(client: "deploy-check") { prepared in
                    try flows.apply(event, to: &tree, on: noting, prepared, info, session: id).snapshot
                }
                report.replayedEvents += 1
                let now = (try? JSONValue.parse(StoredSnapshot.unpack(snapshot))) ?? .null
                let (sawStack, nowStack) = (stack(saw), stack(now))
                if sawStack != nowStack {
                    let line = "\(place): saw \(sawStack), now \(nowStack)"
                    if noting.used { report.differsOverData.append(line) } else { report.navigationDiffers.append(line) }
                } else if Self.props(saw) != Self.props(now) {
                    report.propsOnly += 1
                }
                // The writes the event made then, beside the replay's (entries that recorded them).
                if scratch != nil, let recorded = entry.writesText {
                    let (then, now) = (WriteRecorder.lines(ofStored: recorded), noting.writes.map(\.line))
                    if then != now {
                        report.writesDiffer.append(
                            "\(place): wrote [\(then.joined(separator: "; "))], now [\(now.joined(separator: "; "))]")
                    }
                }
            } catch let error as any DatabaseError {
                if scratch == nil {
                    report.notReplayable["the flow writes models (the check is read-only)", default: 0] += 1
                } else {
                    report.replayedEvents += 1
                    report.navigationDiffers.append("\(place): its statements fail now (\(error.message))")
                }
            } catch {
                report.replayedEvents += 1
                report.navigationDiffers.append("\(place): refused now (\(error))")
            }
        }
    }

    /// A snapshot's stack as users see it: per layer its presentation and screens (by name, with
    /// the events this build's catalog gives them).
    private func stack(_ document: JSONValue) -> String {
        (document["layers"]?.arrayValue ?? []).map { layer -> String in
            let screens = Self.screens(layer).map { screen -> String in
                let name = screen["name"]?.stringValue ?? "?"
                let events = app.screens[name]?.events.map(\.name) ?? []
                return "\(name)(\(events.joined(separator: ",")))"
            }
            return "\(layer["presentation"]?.stringValue ?? "?"):[\(screens.joined(separator: " "))]"
        }.joined(separator: " | ")
    }

    private static func screens(_ layer: JSONValue) -> [JSONValue] {
        var screens = layer["screens"]?.arrayValue ?? []
        for tab in layer["tabs"]?.arrayValue ?? [] { screens += tab["screens"]?.arrayValue ?? [] }
        return screens
    }

    private static func screenNames(_ document: JSONValue) -> [String] {
        (document["layers"]?.arrayValue ?? []).flatMap(screens).compactMap { $0["name"]?.stringValue }
    }

    private static func props(_ document: JSONValue) -> [JSONValue] {
        (document["layers"]?.arrayValue ?? []).flatMap(screens).map { $0["props"] ?? .null }
    }
}
