-- The throttles' counts, shared by every process on this database: failures per key
-- (FailureThrottle) and token buckets per key (RateLimiter). Keys are SHA-256 in hex (StoredKey).
-- IF NOT EXISTS: an app whose own migrations made these tables before this module existed (the
-- sample app's 0008) keeps them.
CREATE TABLE IF NOT EXISTS throttle_failures (
    subject TEXT NOT NULL,
    key TEXT NOT NULL,
    count INTEGER NOT NULL,
    last INTEGER NOT NULL,
    PRIMARY KEY (subject, key)
) STRICT, WITHOUT ROWID;

CREATE INDEX IF NOT EXISTS throttle_failures_last ON throttle_failures (subject, last);

CREATE TABLE IF NOT EXISTS rate_buckets (
    subject TEXT NOT NULL,
    key TEXT NOT NULL,
    tokens INTEGER NOT NULL,
    updated INTEGER NOT NULL,
    PRIMARY KEY (subject, key)
) STRICT, WITHOUT ROWID;
