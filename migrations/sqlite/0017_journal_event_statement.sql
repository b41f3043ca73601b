-- Nothing on SQLite: its journal entries take the next rowid, and its event writes the entry and
-- the row in two statements. (PostgreSQL's 0017 names the sequence its entries' ids come from, and
-- adds the column its one event statement returns the previous head through; migrations are
-- numbered alike in both dialects.)
SELECT 1;
