-- The shipped app's models: users (Argon2id hashes only) and their posts. Identity columns never
-- hand out an id twice, so a deleted user's id is never a new user's. E-mails are unique by their
-- comparison key (NFKC, case-folded, look-alike letters mapped; computed by the app).
CREATE TABLE users (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    email text NOT NULL,
    email_key text NOT NULL UNIQUE,
    password_hash text NOT NULL,
    display_name text NOT NULL,
    created_at bigint NOT NULL
);

CREATE TABLE posts (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    author_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    text text NOT NULL,
    created_at bigint NOT NULL
);

CREATE INDEX posts_author ON posts (author_id, id DESC);

-- A counter per model that changes whenever what a timeline shows could change (a post added or
-- deleted, an author renamed or deleted), so a screen can skip reloading when nothing changed.
CREATE TABLE model_versions (
    name text PRIMARY KEY,
    version bigint NOT NULL
);

INSERT INTO model_versions (name, version) VALUES ('posts', 0);

CREATE FUNCTION posts_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE model_versions SET version = version + 1 WHERE name = 'posts';
    RETURN NULL;
END
$$;

CREATE TRIGGER posts_inserted AFTER INSERT ON posts FOR EACH STATEMENT EXECUTE FUNCTION posts_changed();
CREATE TRIGGER posts_deleted AFTER DELETE ON posts FOR EACH STATEMENT EXECUTE FUNCTION posts_changed();
CREATE TRIGGER users_renamed AFTER UPDATE OF display_name ON users
    FOR EACH STATEMENT EXECUTE FUNCTION posts_changed();
