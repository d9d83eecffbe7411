import { AdmissionGate, AdmissionLimits } from './admission-gate';

const LIMITS: AdmissionLimits = { initial: 8, min: 4, max: 12, targetMs: 30, windowMs: 100 };

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
});
