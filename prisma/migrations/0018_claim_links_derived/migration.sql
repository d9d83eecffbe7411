-- Claim links are derived from the installation's key (ClaimLinkTokens: an HMAC of the payout id
-- and the link id, under a key HKDF-derived from ENCRYPTION_KEY), so Get or Rotate Claim Link shows
-- the current link again from the link id its event keeps, and 0009's encrypted copy of every link
-- is no longer written or read. A link issued before this migration had a random token that only
-- its copy held: it still works for the recipient (its hash is in the payout's stream), but it
-- cannot be shown again; Get or Rotate Claim Link answers 409 link_unavailable for it until the
-- merchant rotates it (docs/design.md#delivery-links-and-expiry), as it always did for a link whose copy was missing.
DROP TABLE claim_link_copies;
