-- How often each name was greeted.
CREATE TABLE greetings (
    name TEXT PRIMARY KEY,
    times INTEGER NOT NULL
) STRICT;
