import HTTPServer
import Instrumentation
import Sessions
import Tracing

/// Reads a request's `traceparent` (W3C Trace Context) and the like through the tracer's propagator.
struct RequestHeadersExtractor: Extractor {
    func extract(key: String, from carrier: HTTPHeaders) -> String? { carrier[key] }
}

/// Writes the server span's `traceparent` into the answer's headers, for the client to follow.
struct ResponseHeadersInjector: Injector {
    func inject(_ value: String, forKey key: String, into carrier: inout HTTPHeaders) { carrier.set(key, value) }
}

extension ObservedResponder {
    /// `respond` in a server span named after the route, continuing the client's trace (its
    /// `traceparent`), whose context the answer carries back; without tracing, `respond` as is.
    nonisolated(nonsending) func traced(
        _ request: HTTPRequest, route: String, _ respond: nonisolated(nonsending) () async -> HTTPResponse
    ) async -> HTTPResponse {
        guard Traced.enabled else { return await respond() }
        var context = ServiceContext.topLevel
        InstrumentationSystem.instrument.extract(request.headers, into: &context, using: RequestHeadersExtractor())
        return await withSpan("\(request.method) \(route)", context: context, ofKind: .server) { span in
            span.attributes["http.request.method"] = request.method
            span.attributes["http.route"] = route
            var response = await respond()
            span.attributes["http.response.status_code"] = response.status
            if response.status >= 500 { span.setStatus(SpanStatus(code: .error)) }
            InstrumentationSystem.instrument.inject(span.context, into: &response.headers, using: ResponseHeadersInjector())
            return response
        }
    }
}
