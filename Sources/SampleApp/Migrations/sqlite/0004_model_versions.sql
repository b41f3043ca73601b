-- A counter per model that changes whenever what a timeline shows could change (a post added or
-- deleted, an author renamed or deleted), so a screen can skip reloading when nothing changed.
CREATE TABLE model_versions (
    name TEXT PRIMARY KEY,
    version INTEGER NOT NULL
) STRICT, WITHOUT ROWID;

INSERT INTO model_versions (name, version) VALUES ('posts', 0);

CREATE TRIGGER posts_inserted AFTER INSERT ON posts
BEGIN
    UPDATE model_versions SET version = version + 1 WHERE name = 'posts';
END;

CREATE TRIGGER posts_deleted AFTER DELETE ON posts
BEGIN
    UPDATE model_versions SET version = version + 1 WHERE name = 'posts';
END;

CREATE TRIGGER users_renamed AFTER UPDATE OF display_name ON users
BEGIN
    UPDATE model_versions SET version = version + 1 WHERE name = 'posts';
END;
