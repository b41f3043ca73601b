-- Which sessions some node streams live (a lease per session, renewed while its streams stay
-- open). An event's commit notifies the other nodes (`pg_notify`) only for a session leased
-- here: a notice costs PostgreSQL a database-wide lock through the commit's WAL flush and every
-- listening node a wake-up, and most sessions have no stream open anywhere.
-- `watched_until` is in Unix seconds of the node that took the lease.
CREATE TABLE live_watches (
    session_id text PRIMARY KEY,
    watched_until bigint NOT NULL
);
