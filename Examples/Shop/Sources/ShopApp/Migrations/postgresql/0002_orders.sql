-- Orders placed at checkout, with the address and the prices they were placed at.
CREATE TABLE orders (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name text NOT NULL,
    street text NOT NULL,
    city text NOT NULL,
    total_cents bigint NOT NULL,
    created_at bigint NOT NULL
);

CREATE TABLE order_lines (
    order_id bigint NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    product_id bigint NOT NULL REFERENCES products (id),
    quantity bigint NOT NULL CHECK (quantity > 0),
    price_cents bigint NOT NULL,
    PRIMARY KEY (order_id, product_id)
);
