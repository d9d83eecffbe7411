import { seededRandom } from '../../../domain/src/testing/seeded-random';

export type Rng = ReturnType<typeof seededRandom>;

/** An audit tally (LedgerTally, FloatTally) beside the domain's evolve it stands in for. */
export interface TallyCase<State, Event extends { type: string }> {
  histories: number;
  steps: number;
  newTally(): { tryApply(event: Event): boolean; toDomainState(): State };
  initial(): State;
  evolve(state: State, event: Event): State;
  /** Mostly events the domain takes, next to refusals and odd values. */
  randomEvent(rng: Rng, state: State): Event;
  /** Whether the tally is meant to take this event when the domain does. */
  plainValues(event: Event): boolean;
  /** Everything the domain's state holds, comparable with toEqual. */
  view(state: State): unknown;
}

export interface TallyAgreement {
  /** Events the tally took, by type. */
  taken: Map<string, number>;
  refusedByBoth: number;
  leftToTheDomain: number;
}

/**
 * Generated histories through both, event by event: the tally takes an event only when the
 * domain does, with the same state after it, and leaves to the domain only values it does not
 * model. A history ends where the tally hands over (the audit then folds by the domain).
 */
export function tallyAgreesWithDomain<State, Event extends { type: string }>(
  c: TallyCase<State, Event>,
): TallyAgreement {
  const agreement: TallyAgreement = { taken: new Map(), refusedByBoth: 0, leftToTheDomain: 0 };
  for (let seed = 1; seed <= c.histories; seed += 1) {
    const rng = seededRandom(seed);
    const tally = c.newTally();
    let state = c.initial();
    for (let step = 0; step < c.steps; step += 1) {
      const event = c.randomEvent(rng, state);
      let next: State | null;
      try {
        next = c.evolve(state, event);
      } catch {
        next = null;
      }
      if (tally.tryApply(event)) {
        // Never an event the domain refuses, and the same state after it.
        expect({ seed, step, event, domainTook: next !== null }).toEqual({
          seed,
          step,
          event,
          domainTook: true,
        });
        state = next!;
        agreement.taken.set(event.type, (agreement.taken.get(event.type) ?? 0) + 1);
      } else if (next === null) {
        agreement.refusedByBoth += 1;
      } else {
        // The domain took what the tally would not: only for values the tally leaves to it.
        expect({ seed, step, event, plain: c.plainValues(event) }).toEqual({
          seed,
          step,
          event,
          plain: false,
        });
        agreement.leftToTheDomain += 1;
        break;
      }
      expect(c.view(tally.toDomainState())).toEqual(c.view(state));
    }
  }
  return agreement;
}
