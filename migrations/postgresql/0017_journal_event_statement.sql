-- What the event statement (one statement: the session row's compare-and-set and its journal
-- entry) needs to skip two lookups per event.
--
-- 1. It draws each entry's id from the sequence behind `session_journal.id` by its name, which
--    PostgreSQL resolves once, when the statement is prepared (looked up with
--    `pg_get_serial_sequence`, it cost a catalog scan per event). The identity sequence got that
--    name when 0012 made the table, unless the name was taken then: this makes sure of it.
DO $$
DECLARE
    drawn_from text := pg_get_serial_sequence('session_journal', 'id');
BEGIN
    IF to_regclass('session_journal_id_seq') IS DISTINCT FROM drawn_from::regclass THEN
        EXECUTE format('ALTER SEQUENCE %s RENAME TO session_journal_id_seq', drawn_from);
    END IF;
END
$$;

-- 2. The update of the row returns the head it replaced (the new entry's `previous_id`) by
--    setting this column from it: PostgreSQL 15's `RETURNING` gives only new values, and reading
--    the head first cost a second lookup of the row and a lock of it. Nothing else reads it.
ALTER TABLE sessions ADD COLUMN previous_journal_head bigint;
