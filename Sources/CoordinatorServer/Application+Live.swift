import PostgresStore
import Sessions

extension Application {
    /// On PostgreSQL, a listener that feeds other nodes' commits to this node's live streams;
    /// nil on SQLite (one process holds every stream).
    static func listen(_ location: DatabaseLocation, _ sessions: SessionService, metrics: LiveMetrics)
        -> PostgresListener?
    {
        guard location.dialect == .postgresql, let channel = sessions.liveChannel else { return nil }
        return PostgresListener(
            url: location.value, channel: channel,
            onNotice: { payload in
                metrics.noticed()
                Task { await sessions.liveNotice(payload) }
            },
            onStatus: { connected in Task { await sessions.liveConnection(connected: connected) } })
    }
}
