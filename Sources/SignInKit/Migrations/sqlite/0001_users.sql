-- The accounts: e-mail, its comparison key (NFKC, case-folded, look-alike letters mapped;
-- computed by the kit), an Argon2id hash, a display name. AUTOINCREMENT: an id is never handed
-- out twice, so a deleted user's id is never a new user's. An app that made this table itself
-- before it used the kit (the sample app) keeps its own: same columns, nothing done here.
CREATE TABLE IF NOT EXISTS users (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    email TEXT NOT NULL,
    email_key TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    display_name TEXT NOT NULL,
    created_at INTEGER NOT NULL
) STRICT;

-- Users whose stored key is to be recomputed after the key function changed (EmailKeyUpgrade).
CREATE TABLE IF NOT EXISTS email_key_upgrades (
    user_id INTEGER PRIMARY KEY
) STRICT;
