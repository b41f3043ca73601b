-- Navigation sessions: the token's SHA-256 (never the token), the versioned snapshot of the
-- coordinator tree, and the times that drive expiry.
CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    token_hash BLOB NOT NULL UNIQUE,
    version INTEGER NOT NULL,
    snapshot BLOB NOT NULL,
    user_id INTEGER,
    created_at INTEGER NOT NULL,
    last_used_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
) STRICT;

CREATE INDEX sessions_expires_at ON sessions (expires_at);
