-- Each session's journal: one row per applied event (and per Idempotency-Key replay), written
-- in the same transaction as the event. The payload is kept without its secret fields; the
-- snapshot after the event (LZ4-packed like `sessions.snapshot`) gives the State at that version
-- and is what the deploy check replays from. Rows of a session stay after it ends, until the
-- sweep trims them by age; each session keeps its newest versions only. `redacted` is a JSON
-- array of the payload members left out.
CREATE TABLE session_journal (
    id INTEGER PRIMARY KEY,
    session_id TEXT NOT NULL,
    version_before INTEGER NOT NULL,
    version INTEGER NOT NULL,
    at INTEGER NOT NULL,
    node TEXT NOT NULL,
    screen TEXT NOT NULL,
    screen_name TEXT NOT NULL,
    event TEXT NOT NULL,
    payload TEXT NOT NULL,
    redacted TEXT NOT NULL,
    replay INTEGER NOT NULL,
    snapshot BLOB
) STRICT;

CREATE INDEX session_journal_session ON session_journal (session_id, version);
