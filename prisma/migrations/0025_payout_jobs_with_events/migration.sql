-- The worker's payout work list (payout_jobs, migration 0006) is written by the payout commands'
-- plans, in the transaction that appends the payout's events, as the funds work lists of 0022 are:
-- no longer by the worker's feed subscription `worker-payout-jobs`. The payout events that
-- subscription had not yet applied (all of them when it never ran) are applied here as it would
-- have applied them, and its checkpoint is removed. Each statement reads only events past the
-- checkpoint, so nothing it already applied is applied twice; the statements run in the order a
-- payout's events come (created, confirmed, ended or failed), and review approvals, which only wake
-- a payout, commute with the rest.

CREATE TEMPORARY TABLE payout_events_not_in_jobs ON COMMIT DROP AS
SELECT e.transaction_id, e.global_position, e.event_type, e.data
  FROM events e
 WHERE e.stream_type = 'payout'
   AND e.event_type IN ('PayoutCreated', 'PayoutConfirmed', 'PayoutCancelled', 'PayoutExpired',
                        'PayoutPaid', 'PayoutFailed', 'PayoutReviewApproved')
   AND (e.transaction_id, e.global_position) > (
         COALESCE((SELECT last_transaction_id FROM subscription_checkpoints
                    WHERE subscription_id = 'worker-payout-jobs'), '0'::xid8),
         COALESCE((SELECT last_position FROM subscription_checkpoints
                    WHERE subscription_id = 'worker-payout-jobs'), 0));

-- Created: the expiry timer.
INSERT INTO payout_jobs (payout_id, account_id, environment, expires_at)
SELECT data->>'payoutId', data->>'accountId', data->>'environment', (data->>'payoutExpiresAt')::timestamptz
  FROM payout_events_not_in_jobs
 WHERE event_type = 'PayoutCreated'
ON CONFLICT (payout_id) DO NOTHING;

-- Confirmed: the timer disarmed and the float queue joined, confirmed_seq in feed order.
UPDATE payout_jobs AS j
   SET expires_at = NULL, accepted_at = c.accepted_at, confirmed_seq = c.seq, next_attempt_at = NULL,
       wake_count = j.wake_count + 1
  FROM (SELECT payout_id, accepted_at, nextval('payout_jobs_confirmed_seq') AS seq
          FROM (SELECT u.data->>'payoutId' AS payout_id, (u.data->>'acceptedAt')::timestamptz AS accepted_at
                  FROM payout_events_not_in_jobs u
                  JOIN payout_jobs p ON p.payout_id = u.data->>'payoutId' AND p.accepted_at IS NULL
                 WHERE u.event_type = 'PayoutConfirmed'
                 ORDER BY u.transaction_id, u.global_position) AS in_feed_order) AS c
 WHERE j.payout_id = c.payout_id AND j.accepted_at IS NULL;

-- Cancelled, expired or paid: nothing is left to do.
UPDATE payout_jobs AS j
   SET expires_at = NULL, finished_at = COALESCE(j.finished_at, f.at)
  FROM (SELECT data->>'payoutId' AS payout_id,
               (CASE event_type WHEN 'PayoutCancelled' THEN data->>'cancelledAt'
                                WHEN 'PayoutExpired' THEN data->>'expiredAt'
                                ELSE data->>'paidAt' END)::timestamptz AS at
          FROM payout_events_not_in_jobs
         WHERE event_type IN ('PayoutCancelled', 'PayoutExpired', 'PayoutPaid')) AS f
 WHERE j.payout_id = f.payout_id;

-- Failed: finished unless it was confirmed (then the worker tidies up at the rail, woken now).
UPDATE payout_jobs AS j
   SET expires_at = NULL, next_attempt_at = NULL, wake_count = j.wake_count + 1,
       finished_at = CASE WHEN j.accepted_at IS NULL THEN COALESCE(j.finished_at, f.at) ELSE j.finished_at END
  FROM (SELECT data->>'payoutId' AS payout_id, (data->>'failedAt')::timestamptz AS at
          FROM payout_events_not_in_jobs
         WHERE event_type = 'PayoutFailed') AS f
 WHERE j.payout_id = f.payout_id;

-- Review approved (once per approval): sent on at the next pass.
UPDATE payout_jobs AS j
   SET next_attempt_at = NULL, wake_count = j.wake_count + w.approvals
  FROM (SELECT data->>'payoutId' AS payout_id, count(*) AS approvals
          FROM payout_events_not_in_jobs
         WHERE event_type = 'PayoutReviewApproved'
         GROUP BY data->>'payoutId') AS w
 WHERE j.payout_id = w.payout_id;

DELETE FROM subscription_checkpoints WHERE subscription_id = 'worker-payout-jobs';
