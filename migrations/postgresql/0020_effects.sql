-- The effects' outbox (`Context.perform`): written with the commit of the event that asked, run
-- after it by a node that leases the row (`leased_by` until `lease_until`), retried at `due_at`,
-- and finished (`delivered`: its result became an event of the session, in that event's commit;
-- `dropped`: the session or the coordinator that asked was gone) with its `outcome`. The id is
-- the idempotency key its handler passes on; `coordinators` the one that asked and its
-- ancestors (`5,3,1`): the first still running gets the result. A node that dies with a lease leaves its effects to
-- the first node that finds the lease ended. Finished rows go with the journal's retention.
CREATE TABLE effects (
    id text PRIMARY KEY,
    session_id text NOT NULL,
    coordinators text NOT NULL,
    name text NOT NULL,
    request text NOT NULL,
    state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'dropped')),
    attempts integer NOT NULL DEFAULT 0,
    due_at bigint NOT NULL,
    leased_by text,
    lease_until bigint NOT NULL DEFAULT 0,
    last_error text,
    outcome text,
    -- The trace of the event that asked (`traceparent`, JSON), which its runs continue; NULL untraced.
    trace text,
    created_at bigint NOT NULL,
    finished_at bigint
);
CREATE INDEX effects_due ON effects (due_at) WHERE state = 'pending';
CREATE INDEX effects_finished ON effects (finished_at) WHERE state <> 'pending';
