-- Navigation sessions: the token's SHA-256 (never the token), the versioned snapshot of the
-- coordinator tree, and the times that drive expiry. Every event writes only over the version it
-- was made from (compare-and-set on `version`), so nodes sharing this table never both advance
-- one session. The fill factor leaves room on each page, so that most updates (which change no
-- indexed column: the expiry index holds the hour, not the second) stay heap-only.
CREATE TABLE sessions (
    id text PRIMARY KEY,
    token_hash bytea NOT NULL UNIQUE,
    version bigint NOT NULL,
    snapshot bytea NOT NULL,
    user_id bigint,
    created_at bigint NOT NULL,
    last_used_at bigint NOT NULL,
    expires_at bigint NOT NULL,
    expires_hour bigint NOT NULL
) WITH (fillfactor = 80);

CREATE INDEX sessions_expires_hour ON sessions (expires_hour);
CREATE INDEX sessions_user ON sessions (user_id) WHERE user_id IS NOT NULL;

-- Answers to events posted with an Idempotency-Key, kept for replay, sealed with a key derived
-- from the request's bearer token (which is never stored); whether the answer rotated that token
-- away, and the session version it made (only the newest few are kept).
CREATE TABLE idempotency_keys (
    session_id text NOT NULL,
    key text NOT NULL,
    request_hash bytea NOT NULL,
    token_hash bytea NOT NULL,
    sealed_answer bytea NOT NULL,
    created_at bigint NOT NULL,
    rotates integer NOT NULL DEFAULT 0,
    session_version bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (session_id, key)
);

CREATE INDEX idempotency_keys_created_at ON idempotency_keys (created_at);
