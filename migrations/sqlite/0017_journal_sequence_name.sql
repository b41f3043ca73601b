-- Nothing on SQLite: its journal entries take the next rowid. (PostgreSQL's 0017 makes sure of the
-- name of the sequence its entries' ids come from; migrations are numbered alike in both dialects.)
SELECT 1;
