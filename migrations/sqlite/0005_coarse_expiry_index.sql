-- Index sessions by the hour they expire in, not the second: an event moves `expires_at`
-- every time, but the indexed hour only once an hour, so most events leave the index alone.
ALTER TABLE sessions ADD COLUMN expires_hour INTEGER NOT NULL DEFAULT 0;
UPDATE sessions SET expires_hour = expires_at / 3600;
DROP INDEX sessions_expires_at;
CREATE INDEX sessions_expires_hour ON sessions (expires_hour);
