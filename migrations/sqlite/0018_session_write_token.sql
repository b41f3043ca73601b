-- Nothing on SQLite: its one writer knows whether each commit happened. (PostgreSQL's 0018 adds
-- the token a write is recognized by after a lost answer; migrations are numbered alike in both
-- dialects.)
SELECT 1;
