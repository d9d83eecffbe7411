-- The account's time zone (docs/dashboard.md#times): the dashboard shows every time in it, and
-- Home's chart groups money by its days. An IANA name the runtime knows, checked by the
-- application (PostgreSQL's own zone list may differ from Node's); UTC until the merchant sets it.
ALTER TABLE accounts ADD COLUMN time_zone text NOT NULL DEFAULT 'UTC'
  CHECK (char_length(time_zone) BETWEEN 1 AND 64);
