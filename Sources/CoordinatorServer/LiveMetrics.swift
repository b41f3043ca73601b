import Sessions
import Synchronization

/// Live-stream figures for `/metrics`: streams opened and closed, frames sent and coalesced,
/// streams refused by cap, notices received from other nodes. Counted with atomics on the paths
/// that send frames (no lock, no lookup).
final class LiveMetrics: Sendable {
    private let openedCount = Atomic<Int>(0)
    private let closedCount = Atomic<Int>(0)
    private let sentCount = Atomic<Int>(0)
    private let coalescedCount = Atomic<Int>(0)
    private let refusedPerSession = Atomic<Int>(0)
    private let refusedPerClient = Atomic<Int>(0)
    private let refusedNode = Atomic<Int>(0)
    private let noticedCount = Atomic<Int>(0)

    func opened() { openedCount.add(1, ordering: .relaxed) }
    func closed() { closedCount.add(1, ordering: .relaxed) }
    func sent() { sentCount.add(1, ordering: .relaxed) }
    func coalesced() { coalescedCount.add(1, ordering: .relaxed) }
    func noticed() { noticedCount.add(1, ordering: .relaxed) }

    func refused(_ refusal: LiveRefusal) {
        switch refusal {
        case .perSession: refusedPerSession.add(1, ordering: .relaxed)
        case .perClient: refusedPerClient.add(1, ordering: .relaxed)
        case .node: refusedNode.add(1, ordering: .relaxed)
        }
    }

    /// The Prometheus text of these figures; `open` is the service's count of streams now.
    func text(open: Int) -> String {
        MetricsText.sample("coordinatord_streams_open", "gauge", "Live streams open on this node.", open)
            + MetricsText.sample(
                "coordinatord_streams_opened_total", "counter", "Live streams opened.", openedCount.load(ordering: .relaxed))
            + MetricsText.sample(
                "coordinatord_stream_frames_sent_total", "counter", "State frames written to live streams.",
                sentCount.load(ordering: .relaxed))
            + MetricsText.sample(
                "coordinatord_stream_frames_coalesced_total", "counter",
                "State frames replaced by a newer one before a slow reader took them.",
                coalescedCount.load(ordering: .relaxed))
            + MetricsText.sample(
                "coordinatord_live_notices_received_total", "counter",
                "Notices of other nodes' changes received (PostgreSQL): commits of sessions streamed on some node, deletions, ended users.",
                noticedCount.load(ordering: .relaxed))
            + MetricsText.family(
                "coordinatord_streams_refused_total", "counter", "Live streams refused, by the cap that was reached.",
                [
                    #"coordinatord_streams_refused_total{cap="session"} \#(refusedPerSession.load(ordering: .relaxed))"#,
                    #"coordinatord_streams_refused_total{cap="client"} \#(refusedPerClient.load(ordering: .relaxed))"#,
                    #"coordinatord_streams_refused_total{cap="node"} \#(refusedNode.load(ordering: .relaxed))"#,
                ].joined(separator: "\n"))
    }
}
