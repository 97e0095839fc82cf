-- The minimal careful transfer's schema, from the shared bench (../shared/bench/minimal-transfer-schema.sql):
-- the database-side floor a Pillar transfer is measured against. npm run bench creates it in its own
-- scratch database (the psql lines that create and connect to 'ledgerbench' are left out).
CREATE TABLE wallets (id int PRIMARY KEY, balance bigint NOT NULL, held bigint NOT NULL DEFAULT 0, CHECK (balance - held >= 0));
CREATE TABLE transfer_requests (id bigserial PRIMARY KEY, user_id int NOT NULL, amount bigint NOT NULL, fee bigint NOT NULL, status text NOT NULL, idem_key text, created_at timestamptz NOT NULL DEFAULT now());
CREATE INDEX ON transfer_requests (user_id, created_at);
CREATE UNIQUE INDEX ON transfer_requests (user_id, idem_key);
CREATE TABLE holds (id bigserial PRIMARY KEY, wallet_id int NOT NULL, request_id bigint NOT NULL, amount bigint NOT NULL, released boolean NOT NULL DEFAULT false);
CREATE TABLE transactions (id bigserial PRIMARY KEY, user_id int NOT NULL, type text, amount bigint, fee bigint, net bigint, status text, category text, created_at timestamptz DEFAULT now());
CREATE INDEX ON transactions (user_id, created_at DESC);
INSERT INTO wallets SELECT g, 100000000, 0 FROM generate_series(1,1000) g;
