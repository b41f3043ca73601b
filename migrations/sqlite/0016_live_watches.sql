-- Nothing on SQLite: one process holds every stream of an embedded store, so no commit notifies
-- another node. (PostgreSQL's 0016 adds `live_watches`, the leases of sessions streamed live;
-- migrations are numbered alike in both dialects.)
SELECT 1;
