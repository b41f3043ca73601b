import Synchronization

/// Whether a session is listed under its user (`journal_users`) without asking the database.
/// On SQLite every signed-in event listed its session again (`INSERT … ON CONFLICT DO NOTHING`):
/// a statement on the writer per event that found the row there nearly every time.
///
/// A resident session keeps the `Listed` its last event noted; the writer skips the listing while
/// that still `holds`. Listings go only by the journal's deletions (a session's journal, a user
/// forgotten, the retention sweep), whose callers pass `willDelete`, called first, on the
/// writer's thread, in the job that deletes: a listing noted before any deletion no longer holds
/// after it. A deletion that rolls back only costs the next event its listing statement again.
/// Only SQLite's write uses it: there one writer runs every deletion and every event's write in
/// turn (on PostgreSQL another node may delete, and the listing rides in the event's one statement).
final class JournalListings: Sendable {
    /// A session listed under `user` as of `generation`.
    struct Listed: Sendable, Equatable {
        let user: Int64
        let generation: UInt64
    }

    private let generation = Atomic<UInt64>(0)

    /// `user`'s listing as of now, for a session whose listing is stored in this write.
    func listed(_ user: Int64) -> Listed {
        Listed(user: user, generation: generation.load(ordering: .acquiring))
    }

    /// True when `listed` says the session is listed under `user` and no listing went since.
    func holds(_ listed: Listed?, user: Int64) -> Bool {
        guard let listed, listed.user == user else { return false }
        return listed.generation == generation.load(ordering: .acquiring)
    }

    /// Listings are about to be deleted: every `Listed` noted so far stops holding.
    func willDelete() {
        generation.add(1, ordering: .acquiringAndReleasing)
    }
}
