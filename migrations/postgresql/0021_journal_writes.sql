-- The model writes each journaled event's flow made: each statement as written (its placeholders,
-- never the values bound to them) and the rows it changed, a JSON array, so that `check-deploy`'s
-- replay can say which writes a new build makes differently. NULL: not recorded (older entries,
-- replays, the session's own changes).
ALTER TABLE session_journal ADD COLUMN writes TEXT;
