-- The throttles' counts, shared by every process on this database: failed sign-ins and password
-- checks per key (an account and client pair, an account, a client), and registration buckets.
CREATE TABLE throttle_failures (
    subject TEXT NOT NULL,
    key TEXT NOT NULL,
    count INTEGER NOT NULL,
    last INTEGER NOT NULL,
    PRIMARY KEY (subject, key)
) STRICT, WITHOUT ROWID;

CREATE INDEX throttle_failures_last ON throttle_failures (subject, last);

CREATE TABLE rate_buckets (
    subject TEXT NOT NULL,
    key TEXT NOT NULL,
    tokens INTEGER NOT NULL,
    updated INTEGER NOT NULL,
    PRIMARY KEY (subject, key)
) STRICT, WITHOUT ROWID;
