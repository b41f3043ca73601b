-- Ending every session of a user (sign out everywhere, a password change, an account deleted)
-- looks sessions up by user.
CREATE INDEX sessions_user ON sessions (user_id) WHERE user_id IS NOT NULL;

-- Stored answers: whether the answer rotated the request's token away (only such an answer may
-- be replayed to the old token), and the session version it made, to keep only the newest ones.
ALTER TABLE idempotency_keys ADD COLUMN rotates INTEGER NOT NULL DEFAULT 0;
ALTER TABLE idempotency_keys ADD COLUMN session_version INTEGER NOT NULL DEFAULT 0;
