-- Device credentials (OWASP's device cookies): a device that signed in to an account keeps a
-- random token and sends it back (Device-Token); failed sign-ins from it are judged on its own
-- failures, so a distributed attack that locks the account out for unknown clients does not lock
-- the owner out. Only the token's SHA-256 is stored; a user keeps a bounded number.
CREATE TABLE device_credentials (
    token_hash BLOB PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL,
    used_at INTEGER NOT NULL
) STRICT, WITHOUT ROWID;

CREATE INDEX device_credentials_user ON device_credentials (user_id, used_at);
CREATE INDEX device_credentials_used ON device_credentials (used_at);
