import ArgumentParser
import Foundation
import Sessions

/// The journal's and the operators' options of `serve`.
struct JournalOptions: ParsableArguments {
    @Option(help: "Journal each session's events (on or off); history and the inspector read the journal.")
    var journal: OnOff = .on

    @Option(help: "Versions of each session the journal keeps; older entries are trimmed as new ones are written.")
    var journalMaxVersions = 1000

    @Option(help: "Seconds a journal entry is kept; the sweep deletes older entries in batches.")
    var journalRetention: Int64 = 30 * 24 * 3600

    @Option(help: "This node's name in journal entries; the host name when omitted.")
    var nodeName: String?

    @Option(help: "The operator key (at least 32 characters) that operator endpoints and the inspector require; none when omitted. Visible in the process list: prefer the key file.")
    var operatorKey: String?

    @Option(help: "File holding the operator key (its first line); none when omitted.")
    var operatorKeyFile: String?

    func validate() throws {
        guard journalMaxVersions >= 1, journalRetention >= 1 else {
            throw ValidationError("--journal-max-versions and --journal-retention take at least 1.")
        }
        if operatorKey != nil && operatorKeyFile != nil {
            throw ValidationError("Give the operator key with --operator-key or --operator-key-file, not both.")
        }
        if let operatorKey, let weakness = OperatorAccess.weakness(of: operatorKey) {
            throw ValidationError("--operator-key \(weakness).")
        }
    }

    /// The journal's settings.
    var settings: JournalSettings {
        var settings = JournalSettings(
            enabled: journal == .on, maxVersionsPerSession: journalMaxVersions, retentionSeconds: journalRetention)
        if let nodeName { settings.node = nodeName }
        return settings
    }

    /// The operator key, read from its file if given there; nil when there is none (operator
    /// endpoints then refuse every request).
    func loadOperatorKey() throws -> String? {
        guard let operatorKeyFile else { return operatorKey }
        let text: String
        do {
            text = try String(contentsOfFile: operatorKeyFile, encoding: .utf8)
        } catch {
            throw StartupError(description: "cannot read the operator key file \(operatorKeyFile): \(error.localizedDescription)")
        }
        let key = text.split(whereSeparator: \.isNewline).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        if let weakness = OperatorAccess.weakness(of: key) {
            throw StartupError(description: "the operator key in \(operatorKeyFile) \(weakness)")
        }
        return key
    }
}
