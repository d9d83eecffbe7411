-- A copy of each link payout's current claim link, so Get or Rotate Claim Link can show the link
-- again (docs/design.md#delivery-links-and-expiry) instead of making the merchant rotate a working link.
-- Events, read models, logs and stored idempotent answers keep only the link's hash; this is the
-- one place the link itself is kept, as SecretBox's AES-256-GCM `v1.<iv>.<tag>.<ciphertext>` with
-- the payout id in the associated data (copied onto another payout's row, it no longer decrypts).
-- Written in the same transaction as the event that issued the link, replaced on rotation; a copy
-- is shown only while its hash is the payout's current link's.
CREATE TABLE claim_link_copies (
  payout_id         text PRIMARY KEY CHECK (char_length(payout_id) BETWEEN 1 AND 191),
  token_ciphertext  text NOT NULL CHECK (token_ciphertext LIKE 'v1.%'),
  kept_at           timestamptz NOT NULL DEFAULT now()
);
