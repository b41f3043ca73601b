-- Texts to erase from every session's journal (a deleted user's name and posts, as other sessions
-- were shown them: `Context.eraseMentions`). Written with the deleting event's commit; the sweep
-- scans the journal in batches from `scanned_to` on and deletes the row when it reaches the end.
CREATE TABLE journal_erasures (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    texts text NOT NULL,
    requested_at bigint NOT NULL,
    scanned_to bigint NOT NULL DEFAULT 0
);
