-- Device credentials (DeviceCredentials): the SHA-256 of each device's token, bound to a user id
-- of the app. No foreign key: this module does not know the app's users table, so the app deletes
-- a user's credentials when it deletes the user. IF NOT EXISTS: an app whose own migrations made
-- the table before this module existed (the sample app's 0011, with a cascading key) keeps it.
CREATE TABLE IF NOT EXISTS device_credentials (
    token_hash BLOB PRIMARY KEY,
    user_id INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    used_at INTEGER NOT NULL
) STRICT, WITHOUT ROWID;

CREATE INDEX IF NOT EXISTS device_credentials_user ON device_credentials (user_id, used_at);
CREATE INDEX IF NOT EXISTS device_credentials_used ON device_credentials (used_at);
