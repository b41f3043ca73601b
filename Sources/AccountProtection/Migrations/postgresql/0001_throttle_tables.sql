-- The throttles' counts, shared by every node: failures per key (FailureThrottle) and token
-- buckets per key (RateLimiter). Keys are SHA-256 in hex (StoredKey). IF NOT EXISTS: an app whose
-- own migrations made these tables before this module existed (the sample app's 0002) keeps them.
CREATE TABLE IF NOT EXISTS throttle_failures (
    subject text NOT NULL,
    key text NOT NULL,
    count bigint NOT NULL,
    last bigint NOT NULL,
    PRIMARY KEY (subject, key)
);

CREATE INDEX IF NOT EXISTS throttle_failures_last ON throttle_failures (subject, last);

CREATE TABLE IF NOT EXISTS rate_buckets (
    subject text NOT NULL,
    key text NOT NULL,
    tokens bigint NOT NULL,
    updated bigint NOT NULL,
    PRIMARY KEY (subject, key)
);
