-- The effects' outbox (`Context.perform`): written with the commit of the event that asked, run
-- after it by a node that leases the row (`leased_by` until `lease_until`), retried at `due_at`,
-- and finished (`delivered`: its result became an event of the session, in that event's commit;
-- `dropped`: the session or the coordinator that asked was gone) with its `outcome`. The id is
-- the idempotency key its handler passes on; `coordinators` the one that asked and its
-- ancestors (`5,3,1`): the first still running gets the result. Finished rows go with the journal's retention.
CREATE TABLE effects (
    id TEXT PRIMARY KEY,
    session_id TEXT NOT NULL,
    coordinators TEXT NOT NULL,
    name TEXT NOT NULL,
    request TEXT NOT NULL,
    state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'dropped')),
    attempts INTEGER NOT NULL DEFAULT 0,
    due_at INTEGER NOT NULL,
    leased_by TEXT,
    lease_until INTEGER NOT NULL DEFAULT 0,
    last_error TEXT,
    outcome TEXT,
    -- The trace of the event that asked (`traceparent`, JSON), which its runs continue; NULL untraced.
    trace TEXT,
    created_at INTEGER NOT NULL,
    finished_at INTEGER
) STRICT;
CREATE INDEX effects_due ON effects (due_at) WHERE state = 'pending';
CREATE INDEX effects_finished ON effects (finished_at) WHERE state <> 'pending';
