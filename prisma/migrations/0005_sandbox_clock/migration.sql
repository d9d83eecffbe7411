-- The sandbox clock: how far the operator has moved the sandbox's time ahead of real time, so
-- expiry and retries can be tested without waiting. One row, shared by every process; production
-- time is never moved.
CREATE TABLE sandbox_clock (
  singleton   boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  offset_ms   bigint NOT NULL DEFAULT 0 CHECK (offset_ms >= 0),
  updated_at  timestamptz NOT NULL DEFAULT now()
);

INSERT INTO sandbox_clock (singleton, offset_ms) VALUES (true, 0);
