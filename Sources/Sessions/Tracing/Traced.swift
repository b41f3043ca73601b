import Synchronization
import Tracing

/// Spans of the server's stages (swift-distributed-tracing), only while tracing is on (`serve
/// --otlp-endpoint`): off, a stage costs one atomic load, not a span and its task-local context.
package enum Traced {
    private static let on = Atomic<Bool>(false)

    /// Whether spans are made.
    package static var enabled: Bool { on.load(ordering: .relaxed) }

    /// Turns spans on (at start, once a tracer is bootstrapped).
    package static func enable() { on.store(true, ordering: .relaxed) }

    /// `body` in a span `name` (a child of the task's current one), when tracing is on.
    package static func span<T>(
        _ name: String, ofKind kind: SpanKind = .internal, attributes: [String: String] = [:],
        isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T
    ) async rethrows -> T {
        guard enabled else { return try await body() }
        return try await withSpan(name, ofKind: kind, isolation: isolation) { span in
            for (key, value) in attributes { span.attributes[key] = value }
            return try await body()
        }
    }

    /// `body` in a span `name`, synchronously (on the task that runs it).
    package static func span<T>(_ name: String, attributes: [String: String] = [:], _ body: () throws -> T) rethrows -> T {
        guard enabled else { return try body() }
        return try withSpan(name) { span in
            for (key, value) in attributes { span.attributes[key] = value }
            return try body()
        }
    }
}
