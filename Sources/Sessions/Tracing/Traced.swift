import Instrumentation
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

    /// `body` in a span `name` (a child of the task's current one), when tracing is on. Runs
    /// where its caller runs, as `body` does: an event's stages pass through several of these,
    /// and each hop to Swift's executor and back cost a check of the task's executor preference.
    package nonisolated(nonsending) static func span<T>(
        _ name: String, ofKind kind: SpanKind = .internal, attributes: [String: String] = [:],
        _ body: nonisolated(nonsending) () async throws -> T
    ) async rethrows -> T {
        guard enabled else { return try await body() }
        return try await withSpan(name, ofKind: kind, isolation: #isolation) { span in
            for (key, value) in attributes { span.attributes[key] = value }
            return try await body()
        }
    }

    /// The current span's context as W3C headers (`traceparent`, …), to continue its trace
    /// elsewhere (an effect run later, on any node); empty when tracing is off.
    package static func carrier() -> [String: String] {
        guard enabled, let context = ServiceContext.current else { return [:] }
        var headers: [String: String] = [:]
        InstrumentationSystem.instrument.inject(context, into: &headers, using: DictionaryInjector())
        return headers
    }

    /// `body` in a span `name` of kind `kind` whose parent is the context `carrier` holds (see
    /// `carrier()`), or a new trace when it holds none.
    package static func span<T>(
        _ name: String, ofKind kind: SpanKind, continuing carrier: [String: String], attributes: [String: String] = [:],
        _ body: () async throws -> T
    ) async rethrows -> T {
        guard enabled else { return try await body() }
        var context = ServiceContext.topLevel
        InstrumentationSystem.instrument.extract(carrier, into: &context, using: DictionaryExtractor())
        return try await withSpan(name, context: context, ofKind: kind) { span in
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

struct DictionaryInjector: Injector {
    func inject(_ value: String, forKey key: String, into carrier: inout [String: String]) { carrier[key] = value }
}

struct DictionaryExtractor: Extractor {
    func extract(key: String, from carrier: [String: String]) -> String? { carrier[key] }
}
