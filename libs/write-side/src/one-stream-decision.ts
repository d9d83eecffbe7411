import { appendTo, LoadedAggregate } from './aggregate-streams';
import type { Decision } from './decision';

/** A command on one long-lived stream (a ledger, a float), decided on its cached state. */
export interface OneStreamDecision<Event extends { type: string; data: unknown }, State, Result> {
  readonly streamId: string;
  readonly streamType: string;
  readonly schemaVersions: Record<string, number>;
  /** The stream as the decision read it (from the aggregate cache). */
  readonly loaded: LoadedAggregate<State>;
  /** What the decider decided: none leaves the plan empty (nothing is written, nothing cached). */
  readonly events: readonly Event[];
  readonly evolve: (state: State, event: Event) => State;
  /** The caller's answer, from the state and version the stream has once the plan commits. */
  readonly result: (state: State, version: number) => Result;
}

/**
 * The Decision of such a command: one append at the version read, the state after it for the
 * aggregate cache, and the answer. The shape every single-stream command shares (operator credits
 * and limits, float top-ups), written once.
 */
export function oneStreamDecision<Event extends { type: string; data: unknown }, State, Result>(
  decided: OneStreamDecision<Event, State, Result>,
): Decision<Result> {
  const { streamId, loaded, events } = decided;
  const state = events.reduce(decided.evolve, loaded.state);
  const version = loaded.version + events.length;
  const result = decided.result(state, version);
  if (events.length === 0) return { plan: { appends: [], rows: [] }, result, cached: [] };
  return {
    plan: {
      appends: [appendTo(streamId, decided.streamType, loaded.version, events, decided.schemaVersions)],
      rows: [],
    },
    result,
    cached: [{ streamId, state, version }],
  };
}
