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

/**
 * Sustained overload: for `ms`, every 10 ms, 10 arrivals (1,000/s) find `taken` held against a
 * measured bound of 64.
 */
function sustain(g: ReturnType<typeof allowance>, ms: number, taken: number) {
  for (let elapsed = 0; elapsed < ms; elapsed += 10) {
    g.later(10);
    for (let i = 0; i < 10; i += 1) g.burst.admits(taken, 64);
  }
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
    const g = allowance();
    expect(letIn(g.burst, 0, 64, 200)).toBe(200);
    sustain(g, 1_000, 200);
    expect(g.burst.admits(200, 64)).toBe(true); // exactly a second old: still young
    g.later(10);
    expect(g.burst.admits(200, 64)).toBe(false);
    expect(g.burst.admits(64, 64)).toBe(false);
    expect(g.burst.admits(63, 64)).toBe(true);
    // Still sustained: the bound taken again a moment later does not start a new burst.
    g.later(BURST_QUIET_MS);
    expect(g.burst.admits(64, 64)).toBe(false);
  });

  it('lets a burst in whole though it arrives over more than a second (a loaded machine), as long as it is no larger than the floor', () => {
    const { burst, later } = allowance();
    let held = 64;
    for (let i = 0; i < 448; i += 1) {
      later(5); // 448 arrivals over 2.2 s, none of them refused
      if (burst.admits(held, 64)) held += 1;
    }
    expect(held).toBe(512);
    expect(burst.admits(held, 64)).toBe(false);
  });

  it('gives the next burst the floor again once the pressure has ended, by room after a quiet gap or by end()', () => {
    const g = allowance();
    sustain(g, 1_100, 100);
    expect(g.burst.admits(100, 64)).toBe(false); // the episode is old
    g.later(1_500);
    // No arrival found the bound taken for 1.5 s, and this one finds room: the episode has ended.
    expect(g.burst.admits(10, 64)).toBe(true);
    expect(letIn(g.burst, 64, 64, 600)).toBe(512 - 64);

    sustain(g, 1_010, 100);
    expect(g.burst.admits(100, 64)).toBe(false); // the second episode is old
    g.burst.end(); // its queue drained
    expect(g.burst.admits(100, 64)).toBe(true);
  });

  it('ends an episode when an arrival finds room after a quiet gap just longer than BURST_QUIET_MS, not before', () => {
    const g = allowance();
    sustain(g, 1_000, 64);
    g.later(BURST_QUIET_MS); // room after a gap of exactly the quiet time: the same episode
    expect(g.burst.admits(63, 64)).toBe(true);
    expect(g.burst.admits(64, 64)).toBe(false);
    g.later(BURST_QUIET_MS + 1);
    expect(g.burst.admits(63, 64)).toBe(true);
    expect(g.burst.admits(64, 64)).toBe(true);
  });

  it('does not end an episode across a stall: the first arrival after it finds the bound still taken', () => {
    const g = allowance();
    sustain(g, 1_100, 64);
    g.later(2_000); // nothing ran for 2 s (a starved CPU)
    expect(g.burst.admits(64, 64)).toBe(false);
  });
});
