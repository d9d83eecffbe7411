import { AdmissionGate, AdmissionLimits } from './admission-gate';

// No burst allowance above `min` here (burst 4): these tests are about the measured limit alone.
const LIMITS: AdmissionLimits = {
  initial: 8,
  min: 4,
  burst: 4,
  burstMs: 1000,
  max: 12,
  targetMs: 30,
  windowMs: 100,
};

/** A gate on a clock the test moves: each window closes when the clock has moved past it. */
function gate(limits: AdmissionLimits = LIMITS) {
  let now = 0;
  const admission = new AdmissionGate(limits, () => now);
  return {
    admission,
    enter: (count: number) => Array.from({ length: count }, () => admission.enter()),
    later: (ms: number) => (now += ms),
  };
}

describe('AdmissionGate', () => {
  it('lets in up to its limit and refuses the next at once; an answer frees a place', () => {
    const { admission, enter } = gate();
    expect(enter(10)).toEqual([true, true, true, true, true, true, true, true, false, false]);
    expect(admission.commandsInFlight).toBe(8);
    admission.leave(5);
    expect(admission.enter()).toBe(true);
    expect(admission.enter()).toBe(false);
  });

  it('shrinks the limit by a quarter for each window of answers slower than the target, never below its minimum', () => {
    const { admission, enter, later } = gate();
    enter(8);
    for (let i = 0; i < 8; i += 1) admission.leave(200);
    later(101);
    admission.enter();
    expect(admission.limit).toBe(6);
    admission.leave(200);
    later(101);
    admission.enter();
    expect(admission.limit).toBe(4);
    admission.leave(200);
    later(101);
    admission.enter();
    expect(admission.limit).toBe(4);
  });

  it('returns to its initial limit once answers come in time again, and grows past it only when it refused', () => {
    const { admission, enter, later } = gate();
    enter(8);
    for (let i = 0; i < 8; i += 1) admission.leave(200);
    later(101);
    admission.enter(); // slow window: 8 → 6
    admission.leave(5);
    later(101);
    admission.enter(); // timely: 6 → 8 (back to initial)
    expect(admission.limit).toBe(8);
    admission.leave(5);
    later(101);
    admission.enter(); // timely, nothing refused: stays
    expect(admission.limit).toBe(8);
    admission.leave(5);
    enter(9); // 8 in, the 9th refused
    admission.leave(5);
    later(101);
    admission.enter(); // timely and refused: grows past initial
    expect(admission.limit).toBe(9);
  });

  describe('a burst', () => {
    // The shipped shape, scaled: floor 128 under sustained overload, 512 for a burst's first second.
    const BURSTY: AdmissionLimits = {
      initial: 1024,
      min: 128,
      burst: 512,
      burstMs: 1000,
      max: 16_384,
      targetMs: 30,
      windowMs: 100,
    };

    /** Slow answers for `windows` windows with `held` in flight, each window's answers replaced at once. */
    function slowWindows(g: ReturnType<typeof gate>, windows: number) {
      for (let w = 0; w < windows; w += 1) {
        g.admission.leave(200);
        g.later(101);
        g.admission.enter();
      }
    }

    it('lets 512 in on a young episode though slow answers have shrunk the measured limit to its floor', () => {
      const g = gate(BURSTY);
      g.enter(100);
      slowWindows(g, 12); // 1024 × 0.75^n reaches the floor of 128
      expect(g.admission.limit).toBe(128);
      expect(g.admission.commandsInFlight).toBe(100);
      // Pressure starts here: the limit of 128 is taken, the burst floor of 512 holds.
      const answers = g.enter(450);
      expect(answers.filter(Boolean)).toHaveLength(412);
      expect(g.admission.commandsInFlight).toBe(512);
    });

    it('falls to the measured limit after more than a second of sustained pressure, and lets a new burst in once the pressure has ended', () => {
      const g = gate(BURSTY);
      g.enter(100);
      slowWindows(g, 12);
      expect(g.enter(412).every(Boolean)).toBe(true); // young: up to 512
      // Sustained: answers keep coming slowly and arrivals keep finding the limit taken.
      for (let elapsed = 0; elapsed <= 1000; elapsed += 50) {
        g.later(50);
        for (let i = 0; i < 10; i += 1) g.admission.leave(200);
        g.enter(20);
      }
      // The episode is over a second old: nothing more in until in flight is below the limit of 128.
      expect(g.admission.limit).toBe(128);
      expect(g.enter(5)).toEqual([false, false, false, false, false]);
      while (g.admission.commandsInFlight > 127) g.admission.leave(200);
      expect(g.enter(2)).toEqual([true, false]);
      // Everything answered: the pressure is gone, and the next burst gets 512 again.
      while (g.admission.commandsInFlight > 0) g.admission.leave(200);
      expect(g.enter(600).filter(Boolean)).toHaveLength(512);
    });

    it('never lets more than max in, burst or not', () => {
      const g = gate({ ...BURSTY, initial: 1, min: 1, max: 1 });
      expect(g.enter(3)).toEqual([true, false, false]);
    });
  });
});
