-- Answers to events posted with an Idempotency-Key, kept 24 hours so a retry replays them.
-- The answer is sealed with a key derived from the request's bearer token (which is never
-- stored), because it may carry a freshly rotated token.
CREATE TABLE idempotency_keys (
    session_id TEXT NOT NULL,
    key TEXT NOT NULL,
    request_hash BLOB NOT NULL,
    token_hash BLOB NOT NULL,
    sealed_answer BLOB NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (session_id, key)
) STRICT, WITHOUT ROWID;

CREATE INDEX idempotency_keys_created_at ON idempotency_keys (created_at);
