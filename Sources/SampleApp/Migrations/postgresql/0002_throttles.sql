-- The throttles' counts, shared by every node: failed sign-ins and password checks per key (an
-- account and client pair, an account, a client), and registration buckets per client.
CREATE TABLE throttle_failures (
    subject text NOT NULL,
    key text NOT NULL,
    count bigint NOT NULL,
    last bigint NOT NULL,
    PRIMARY KEY (subject, key)
);

CREATE INDEX throttle_failures_last ON throttle_failures (subject, last);

CREATE TABLE rate_buckets (
    subject text NOT NULL,
    key text NOT NULL,
    tokens bigint NOT NULL,
    updated bigint NOT NULL,
    PRIMARY KEY (subject, key)
);
