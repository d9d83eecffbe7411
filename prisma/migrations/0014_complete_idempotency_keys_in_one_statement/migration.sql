-- complete_idempotency_keys (0012) stores a group's answers in one statement instead of one per key.
-- The loop ran an UPDATE per key, and the server pays for every statement it executes, whatever
-- its size: executor start-up, and re-reading the table's six CHECK constraints from the catalog's
-- text form (one of them a regular expression). On a group commit of Create Payouts those were
-- about a third of the server's time in the function (measured with perf on this machine's
-- server; the statement below costs about 25-40 us less server CPU per key).
--
-- The reason 0012 looped still holds: a join of the keys to the table, planned while the table was
-- small, can be a hash join over a sequential scan and stay one while the table grows. So this
-- function is planned with sequential scans, hash joins and merge joins off: the only plan left is
-- a nested loop that finds each key by the primary key, at any size. The rows are locked in key
-- order (the loop took them in the order given: one order for every caller is the safer of the
-- two); a key given twice keeps its first answer, and only in_flight rows change. Same signature,
-- same result: the keys that changed.
CREATE OR REPLACE FUNCTION complete_idempotency_keys(
  p_account_ids text[],
  p_environments text[],
  p_methods text[],
  p_paths text[],
  p_keys text[],
  p_statuses text[],
  p_bodies text[],
  p_ats text[]
) RETURNS TABLE (
  account_id text,
  environment text,
  method text,
  path text,
  idempotency_key text
) LANGUAGE plpgsql
  SET enable_seqscan = off SET enable_hashjoin = off SET enable_mergejoin = off
AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
    UPDATE idempotency_keys k
       SET state = 'completed', response_status = a.status::integer, response_body = a.body::jsonb,
           locked_until = NULL, completed_at = coalesce(a.at::timestamptz, now())
      FROM (
        SELECT DISTINCT ON (u.account_id, u.environment, u.method, u.path, u.idempotency_key) u.*
          FROM unnest(p_account_ids, p_environments, p_methods, p_paths, p_keys, p_statuses, p_bodies, p_ats)
               WITH ORDINALITY AS u(account_id, environment, method, path, idempotency_key, status, body, at, n)
         ORDER BY u.account_id, u.environment, u.method, u.path, u.idempotency_key, u.n
      ) a
     WHERE k.account_id = a.account_id AND k.environment = a.environment AND k.method = a.method
       AND k.path = a.path AND k.idempotency_key = a.idempotency_key AND k.state = 'in_flight'
    RETURNING k.account_id, k.environment, k.method, k.path, k.idempotency_key;
END;
$$;
