-- A key's row is written twice: claimed (in flight, about 250 bytes) and, moments later, completed
-- with its answer (a few hundred bytes more). Pages packed full by the claims left the answer no
-- room beside its claim, so every completion wrote the row's new version on another page and new
-- entries in both indexes (the five-column primary key and created_at), leaving dead ones behind
-- for vacuum. Claims now fill a page to a quarter, so the answer fits on the same page and the
-- completion is a HOT update: no index entries at all. Completed keys end about as densely packed
-- as before, since a completed row is about four times a claim. Applies to pages written from now on.
ALTER TABLE idempotency_keys SET (fillfactor = 25);
