-- How each order is paid: `on delivery` (the shop charges no card), or charged by the payment
-- service after the order committed (`ChargeOrder`, an effect): `pending`, then `paid` with the
-- service's receipt, or `failed` with why.
ALTER TABLE orders ADD COLUMN payment TEXT NOT NULL DEFAULT 'on delivery';
ALTER TABLE orders ADD COLUMN payment_detail TEXT;
