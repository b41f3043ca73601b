-- The throttles store the SHA-256 of each key from now on, never the key itself: a key made of
-- client-chosen text (an e-mail's comparison key) could be long. The rows so far hold raw keys;
-- they are transient counts, so they go.
DELETE FROM throttle_failures;
DELETE FROM rate_buckets;
