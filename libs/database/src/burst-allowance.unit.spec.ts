import { BURST_QUIET_MS, BurstAllowance } from './burst-allowance';

/** An allowance of 512 for a second, on a clock the test moves. */
function allowance() {
  let now = 1_000;
  const burst = new BurstAllowance({ floor: 512, youngMs: 1_000 }, () => now);
  return { burst, later: (ms: number) => (now += ms) };
}

/** How many of `count` arrivals it lets in, each held, from `taken` held already. */
function letIn(burst: BurstAllowance, taken: number, measured: number, count: number): number {
  let held = taken;
  for (let i = 0; i < count; i += 1) if (burst.admits(held, measured)) held += 1;
  return held - taken;
}

describe('BurstAllowance', () => {
  it('admits whatever the measured bound admits, with or without pressure', () => {
    const { burst } = allowance();
    expect(burst.admits(63, 64)).toBe(true);
    expect(burst.admits(0, 1)).toBe(true);
  });

  it('lets a burst of 512 in on a young episode though the measured bound is 64, and refuses the 513th', () => {
    const { burst } = allowance();
    expect(letIn(burst, 0, 64, 600)).toBe(512);
  });

  it('holds the floor for the burst window only: after more than a second of sustained pressure, only the measured bound admits', () => {
    const { burst, later } = allowance();
    expect(letIn(burst, 0, 64, 200)).toBe(200);
    // Pressure seen without a quiet gap (arrivals every 100 ms find the bound taken).
    for (let elapsed = 0; elapsed < 1_000; elapsed += 100) {
      later(100);
      expect(burst.admits(200, 64)).toBe(true);
    }
    later(100); // 1.1 s of pressure
    expect(burst.admits(200, 64)).toBe(false);
    expect(burst.admits(64, 64)).toBe(false);
    expect(burst.admits(63, 64)).toBe(true);
    // Still sustained: the bound taken again a moment later does not start a new burst.
    later(BURST_QUIET_MS);
    expect(burst.admits(64, 64)).toBe(false);
  });

  it('gives the next burst the floor again once the pressure has ended, by a quiet gap or by end()', () => {
    const { burst, later } = allowance();
    letIn(burst, 0, 64, 100);
    later(1_500);
    // No arrival found the bound taken for 1.5 s: the episode ended, this is a new burst.
    expect(letIn(burst, 64, 64, 600)).toBe(512 - 64);

    for (let elapsed = 0; elapsed <= 1_000; elapsed += 100) {
      later(100);
      burst.admits(100, 64);
    }
    expect(burst.admits(100, 64)).toBe(false); // the second episode is old
    burst.end(); // its queue drained
    expect(burst.admits(100, 64)).toBe(true);
  });

  it('ends an episode after a quiet gap just longer than BURST_QUIET_MS, not before', () => {
    const { burst, later } = allowance();
    for (let elapsed = 0; elapsed < 1_000; elapsed += 200) {
      burst.admits(64, 64);
      later(200);
    }
    burst.admits(64, 64);
    later(BURST_QUIET_MS); // a gap of exactly the quiet time: the same episode, now 1.25 s old
    expect(burst.admits(64, 64)).toBe(false);
    later(BURST_QUIET_MS + 1);
    expect(burst.admits(64, 64)).toBe(true);
  });
});
