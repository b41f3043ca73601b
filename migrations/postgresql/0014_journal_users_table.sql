-- The sessions whose journal an account's deletion erases: one row per session and user it was
-- signed in to, written when an entry first names that user (at sign-in, not per event).
-- It replaces the index on `session_journal.user_id`, which added an index entry to every
-- signed-in session's event; the column stays, naming each entry's user. A row goes when its
-- session's journal does (deleted, erased or swept).
CREATE TABLE journal_users (
    session_id text NOT NULL,
    user_id bigint NOT NULL,
    PRIMARY KEY (session_id, user_id)
);

CREATE INDEX journal_users_user ON journal_users (user_id);

INSERT INTO journal_users (session_id, user_id)
    SELECT DISTINCT session_id, user_id FROM session_journal WHERE user_id IS NOT NULL;

DROP INDEX session_journal_user;
