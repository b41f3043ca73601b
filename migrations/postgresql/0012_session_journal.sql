-- Each session's journal: one row per applied event (and per Idempotency-Key replay), written
-- in the same transaction as the event. The payload is kept without its secret fields; the
-- snapshot after the event (LZ4-packed like `sessions.snapshot`) gives the State at that version
-- and is what the deploy check replays from. Rows of a session stay after it ends, until the
-- sweep trims them by age; each session keeps its newest versions only. `redacted` is a JSON
-- array of the payload members left out.
CREATE TABLE session_journal (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    session_id text NOT NULL,
    version_before bigint NOT NULL,
    version bigint NOT NULL,
    at bigint NOT NULL,
    node text NOT NULL,
    screen text NOT NULL,
    screen_name text NOT NULL,
    event text NOT NULL,
    payload text NOT NULL,
    redacted text NOT NULL,
    replay integer NOT NULL,
    snapshot bytea
);

CREATE INDEX session_journal_session ON session_journal (session_id, version);
