/**
 * An aggregate as a decider: `decide` turns a command into events (or refuses with a
 * DomainError), `evolve` folds an event into the state. Time comes in as `now`.
 */
export interface Decider<Command, Event, State> {
  decide(command: Command, state: State, now: Date): Event[];
  evolve(state: State, event: Event): State;
  initialState(): State;
}

/** Folds events into a state with a decider's evolve. */
export function foldEvents<Event, State>(
  evolve: (state: State, event: Event) => State,
  initial: State,
  events: readonly Event[],
): State {
  return events.reduce(evolve, initial);
}

/** The two environments every account has, each with its own ledgers, credentials and data. */
export const ENVIRONMENTS = ['production', 'sandbox'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];
