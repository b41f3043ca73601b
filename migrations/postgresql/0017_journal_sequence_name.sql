-- The event statement draws each journal entry's id from the sequence behind
-- `session_journal.id` by its name, which PostgreSQL resolves once, when the statement is
-- prepared. (Looked up with `pg_get_serial_sequence` on every event, it cost a catalog scan per
-- event.) The identity sequence got that name when 0012 made the table, unless the name was
-- taken then: this makes sure of it.
DO $$
DECLARE
    drawn_from text := pg_get_serial_sequence('session_journal', 'id');
BEGIN
    IF to_regclass('session_journal_id_seq') IS DISTINCT FROM drawn_from::regclass THEN
        EXECUTE format('ALTER SEQUENCE %s RENAME TO session_journal_id_seq', drawn_from);
    END IF;
END
$$;
