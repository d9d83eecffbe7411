-- The receiving details a recipient confirmed are sealed in the confirm's own transaction: from
-- then on a save from the pages (another tab, a double submit) can no longer replace them, so the
-- payout is sent to exactly the details that were confirmed.
ALTER TABLE claim_receiving_details ADD COLUMN confirmed_at timestamptz;
