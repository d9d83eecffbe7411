-- 0013 filled idempotency_keys pages only to a quarter, so that a claim (in flight, about 250
-- bytes) left room beside it for its completion and the update stayed HOT. Since a create's first
-- attempt inserts its key already completed, with its answer (about 1 KB), in the create's own
-- transaction, most rows are written once and never updated: at a quarter, a page held two of
-- them, and the table (kept 30 days) grew to four times its data, with a new page for every
-- second create (measured: 4,800 completed keys took 14,400 pages at 25 and 3,600 at 100).
-- Keys claimed before their work (a create's retry, Cancel, the claim link, a redirect session)
-- are far fewer; their completion is a HOT update when the page still has room, and otherwise
-- writes the new version elsewhere, as any update does. Applies to pages written from now on.
ALTER TABLE idempotency_keys SET (fillfactor = 100);
