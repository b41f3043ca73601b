-- A random token stored by each event's one-round-trip write (`BEGIN`, the write, `COMMIT` sent
-- together). Its transaction's id is never asked for, so when the connection breaks before the
-- answer, the server tells whether the write committed by this token instead (`txid_status` needed
-- the id before `COMMIT` was sent: a second round trip per event). Nothing else reads it.
ALTER TABLE sessions ADD COLUMN write_token bigint;
