-- The user a journal entry belongs to: the session's user after the event (before it, for a
-- sign-out). Deleting an account deletes the whole journal of every session its user was signed
-- in to, even a session that has since signed out or ended (its `sessions` row no longer names
-- the user, or is gone); entries written before this migration name no one.
ALTER TABLE session_journal ADD COLUMN user_id bigint;

CREATE INDEX session_journal_user ON session_journal (user_id) WHERE user_id IS NOT NULL;
