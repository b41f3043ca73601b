-- User ids are never reused: a deleted user's id handed to a new user would let any session
-- still naming it act as the new user. AUTOINCREMENT keeps ids above every id ever used, and the
-- sequence starts above every id a stored session names. E-mails are unique by their comparison
-- key (NFKC, case-folded, look-alike letters mapped; computed by the app), not by their text:
-- for the addresses stored so far (ASCII) that key is their lower case.
CREATE TABLE users_new (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    email TEXT NOT NULL,
    email_key TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    display_name TEXT NOT NULL,
    created_at INTEGER NOT NULL
) STRICT;

INSERT INTO users_new (id, email, email_key, password_hash, display_name, created_at)
    SELECT id, email, lower(email), password_hash, display_name, created_at FROM users;

INSERT INTO sqlite_sequence (name, seq)
    SELECT 'users_new', 0 WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'users_new');
UPDATE sqlite_sequence SET seq = max(seq, (SELECT coalesce(max(user_id), 0) FROM sessions))
    WHERE name = 'users_new';

DROP TABLE users;
ALTER TABLE users_new RENAME TO users;

-- Dropped with the old table (migration 0004).
CREATE TRIGGER users_renamed AFTER UPDATE OF display_name ON users
BEGIN
    UPDATE model_versions SET version = version + 1 WHERE name = 'posts';
END;
