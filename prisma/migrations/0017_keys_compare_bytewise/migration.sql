-- The keys every Create Payout writes compare byte for byte, and its one regular-expression CHECK
-- becomes plain string functions. Measured with perf on the server's group-commit backend under
-- bench:api's Create load: B-tree key comparisons were its largest item (_bt_compare, 15% of the
-- backend), over a third of it text keys compared through the database's collation (strcoll), and
-- the request_hash CHECK's regex another 4%.
--
-- 1. COLLATE "C" on the text columns of the create path's indexes. They hold identifiers (ids,
--    stream ids, environment, method, path, status) and the merchant's own references and keys,
--    which are only ever looked up by equality, and equality is the same under every deterministic
--    collation: only ordering could change, and nothing orders by these columns but payout_id as
--    List's tie-breaker, whose hex ids sort the same either way. A column's "C" wins over the
--    default collation of the parameters and columns it is compared with, so every lookup still
--    uses its index; events and event_streams change together because they are joined.
-- 2. idempotency_keys.request_hash: the same rule (64 lowercase hex characters) without the regex
--    engine, which ran for every stored answer.
--
-- Rewrites these tables' indexes (and takes their locks) once; on a large installation, run it in
-- a quiet hour.
ALTER TABLE event_streams ALTER COLUMN stream_id TYPE text COLLATE "C";
ALTER TABLE events ALTER COLUMN stream_id TYPE text COLLATE "C";

ALTER TABLE idempotency_keys
  ALTER COLUMN account_id TYPE text COLLATE "C",
  ALTER COLUMN environment TYPE text COLLATE "C",
  ALTER COLUMN method TYPE text COLLATE "C",
  ALTER COLUMN path TYPE text COLLATE "C",
  ALTER COLUMN idempotency_key TYPE text COLLATE "C";

ALTER TABLE payout_list
  ALTER COLUMN payout_id TYPE text COLLATE "C",
  ALTER COLUMN account_id TYPE text COLLATE "C",
  ALTER COLUMN environment TYPE text COLLATE "C",
  ALTER COLUMN merchant_reference TYPE text COLLATE "C",
  ALTER COLUMN customer_id TYPE text COLLATE "C",
  ALTER COLUMN status TYPE text COLLATE "C";

ALTER TABLE payout_balances
  ALTER COLUMN account_id TYPE text COLLATE "C",
  ALTER COLUMN environment TYPE text COLLATE "C";

ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_request_hash_check;
ALTER TABLE idempotency_keys ADD CONSTRAINT idempotency_keys_request_hash_check
  CHECK (octet_length(request_hash) = 64 AND ltrim(request_hash, '0123456789abcdef') = '');
