-- How often each name was greeted.
CREATE TABLE greetings (
    name text PRIMARY KEY,
    times bigint NOT NULL
);
