import Synchronization

/// Counts of request handlers, shared by a server and whoever reports them (`/metrics`).
///
/// A handler counts as running from the moment its request is complete until it delivers its
/// response, whether or not its client is still connected: work a request started runs to its end.
package final class HandlerCounters: Sendable {
    private let runningNow = Atomic<Int>(0)
    private let withoutClientNow = Atomic<Int>(0)
    private let clientsLeftCount = Atomic<Int>(0)

    package init() {}

    /// Handlers running now.
    package var running: Int { runningNow.load(ordering: .acquiring) }

    /// Handlers running now whose client has left.
    package var runningWithoutClient: Int { withoutClientNow.load(ordering: .relaxed) }

    /// Handlers whose client left before their whole answer was sent, since the start.
    package var clientsLeft: Int { clientsLeftCount.load(ordering: .relaxed) }

    func started() { runningNow.add(1, ordering: .relaxed) }

    /// The handler delivered its response; `delivered` is false when its client had left.
    func finished(delivered: Bool) {
        if !delivered { withoutClientNow.subtract(1, ordering: .relaxed) }
        runningNow.subtract(1, ordering: .releasing)
    }

    /// The handler had delivered its answer, but its connection closed before it was all sent.
    func answerFoundNoClient() { clientsLeftCount.add(1, ordering: .relaxed) }

    /// The request's connection closed while its handler still ran.
    func clientLeft() {
        withoutClientNow.add(1, ordering: .relaxed)
        clientsLeftCount.add(1, ordering: .relaxed)
    }
}
