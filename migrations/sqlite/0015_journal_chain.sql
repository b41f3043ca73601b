-- Each session's journal becomes a chain: an entry names its session's previous entry, and the
-- session's row its newest (`journal_heads` keeps the newest of a session whose row is gone).
-- It replaces the index on `(session_id, version)`, which added a leaf page far from the
-- others to the commit of every event. Every 16th version (`JournalSQL.trimEvery`) stays
-- indexed, as an anchor where the trim and a lookup by version start their walk.
ALTER TABLE session_journal ADD COLUMN previous_id INTEGER;

ALTER TABLE sessions ADD COLUMN journal_head INTEGER;

CREATE TABLE journal_heads (
    session_id TEXT PRIMARY KEY,
    head INTEGER NOT NULL
) STRICT, WITHOUT ROWID;

UPDATE session_journal SET previous_id = (
    SELECT max(earlier.id) FROM session_journal earlier
    WHERE earlier.session_id = session_journal.session_id AND earlier.id < session_journal.id);

UPDATE sessions SET journal_head = (SELECT max(id) FROM session_journal WHERE session_id = sessions.id);

INSERT INTO journal_heads (session_id, head)
    SELECT session_id, max(id) FROM session_journal
    WHERE session_id NOT IN (SELECT id FROM sessions) GROUP BY session_id;

DROP INDEX session_journal_session;

CREATE INDEX session_journal_anchor ON session_journal (session_id, version) WHERE version % 16 = 0 AND replay = 0;
