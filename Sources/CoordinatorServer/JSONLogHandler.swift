import Foundation
import Logging

/// One JSON object per line on standard error: time, level, label, message and metadata.
/// swift-log ships only a text handler, and the local package mirror has no JSON one.
struct JSONLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var fields: [String: String] = [
            "time": Date().formatted(.iso8601), "level": event.level.rawValue, "label": label,
            "message": event.message.description,
        ]
        for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 }) {
            fields[key] = value.description
        }
        // Encoding string-to-string dictionaries cannot fail; JSONEncoder escapes every control character.
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard var line = try? encoder.encode(fields) else { return }
        line.append(UInt8(ascii: "\n"))
        FileHandle.standardError.write(line)
    }
}
