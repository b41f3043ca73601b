import Foundation
import Navigation
import Synchronization

/// Writes each request a test sends and the answer it got as one JSON line to the file named by
/// `OPENAPI_EXCHANGE_LOG`, when it is set: a validator then checks every exchange of a
/// journey against the app's OpenAPI document (`make test` does, for the Shop's).
enum ExchangeLog {
    private static let path = ProcessInfo.processInfo.environment["OPENAPI_EXCHANGE_LOG"]
    private static let lock = Mutex(())

    static func record(
        _ method: String, _ path: String, headers: [(String, String)], body: [UInt8], answer: LiveResponse
    ) {
        guard let file = Self.path else { return }
        let line: JSONValue = [
            "method": .string(method), "path": .string(path),
            "headers": .object(Dictionary(headers.map { ($0.0, JSONValue.string($0.1)) }, uniquingKeysWith: { $1 })),
            "body": .string(String(decoding: body, as: UTF8.self)), "status": .int(answer.status),
            "responseHeaders": .object(answer.headers.mapValues(JSONValue.string)),
            "responseBody": .string(String(decoding: answer.body, as: UTF8.self)),
        ]
        lock.withLock { _ in
            guard let handle = FileHandle(forWritingAtPath: file) ?? Self.create(file) else { return }
            defer { try? handle.close() }
            _ = try? handle.seekToEnd()
            try? handle.write(contentsOf: Data(line.serialized() + [UInt8(ascii: "\n")]))
        }
    }

    private static func create(_ file: String) -> FileHandle? {
        _ = FileManager.default.createFile(atPath: file, contents: nil)
        return FileHandle(forWritingAtPath: file)
    }
}
