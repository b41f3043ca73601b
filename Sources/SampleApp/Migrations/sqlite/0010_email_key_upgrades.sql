-- E-mail comparison keys changed: look-alike letters of more scripts are mapped, accents on Latin,
-- Greek and Cyrillic letters and characters that show nothing are ignored. The key of an address in
-- printable ASCII is its lower case, before and after; every other stored address gets its key
-- recomputed by the app (EmailKeyUpgrade) before the next look-up of an address. These users are
-- still to do; the app empties the table.
CREATE TABLE email_key_upgrades (
    user_id INTEGER PRIMARY KEY
) STRICT;

INSERT INTO email_key_upgrades (user_id)
    SELECT id FROM users WHERE email GLOB '*[^ -~]*' OR email_key GLOB '*[^ -~]*';
