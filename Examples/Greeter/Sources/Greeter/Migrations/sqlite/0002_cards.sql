-- Cards sent to each person greeted: how many, and the last one's message.
ALTER TABLE greetings ADD COLUMN cards INTEGER NOT NULL DEFAULT 0;
ALTER TABLE greetings ADD COLUMN last_card TEXT;
