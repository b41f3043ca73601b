-- The shop's catalogue: products by category, prices in cents.
CREATE TABLE products (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    category TEXT NOT NULL,
    price_cents INTEGER NOT NULL CHECK (price_cents > 0)
) STRICT;

CREATE INDEX products_category ON products (category, id);

INSERT INTO products (id, name, category, price_cents) VALUES
    (1, 'Espresso cup', 'kitchen', 900), (2, 'Milk jug', 'kitchen', 1500), (3, 'Coffee grinder', 'kitchen', 8900),
    (4, 'Kettle', 'kitchen', 4500), (5, 'Notebook', 'desk', 1200), (6, 'Fountain pen', 'desk', 3900),
    (7, 'Desk lamp', 'desk', 5900), (8, 'Pencil case', 'desk', 800), (9, 'Rain jacket', 'outdoor', 12900),
    (10, 'Water bottle', 'outdoor', 1900), (11, 'Trail map', 'outdoor', 1100), (12, 'Head torch', 'outdoor', 2900);
