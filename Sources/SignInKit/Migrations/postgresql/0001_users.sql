-- The accounts: e-mail, its comparison key (NFKC, case-folded, look-alike letters mapped;
-- computed by the kit), an Argon2id hash, a display name. Identity columns never hand out an id
-- twice, so a deleted user's id is never a new user's. An app that made this table itself
-- before it used the kit (the sample app) keeps its own: same columns, nothing done here.
CREATE TABLE IF NOT EXISTS users (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    email text NOT NULL,
    email_key text NOT NULL UNIQUE,
    password_hash text NOT NULL,
    display_name text NOT NULL,
    created_at bigint NOT NULL
);

-- Users whose stored key is to be recomputed after the key function changed (EmailKeyUpgrade).
CREATE TABLE IF NOT EXISTS email_key_upgrades (
    user_id bigint PRIMARY KEY
);
