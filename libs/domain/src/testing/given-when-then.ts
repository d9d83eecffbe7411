import { Decider, foldEvents } from '../kernel/decider';
import { DomainError, DomainErrorCode } from '../kernel/domain-error';

/**
 * Decider specifications that read as sentences:
 * `given(pastEvents).when(command, now).then(newEvents)` or `.thenRefuses(code, param)`.
 * `then` also folds the new events, so every expected event is one evolve accepts, and returns
 * the resulting state for further assertions. Test code only; not exported from the library.
 */
export function deciderSpec<Command, Event, State>(decider: Decider<Command, Event, State>) {
  const fold = (events: readonly Event[], from: State = decider.initialState()): State =>
    foldEvents(decider.evolve, from, events);

  function given(past: readonly Event[]) {
    return {
      when(command: Command, now: Date) {
        const state = fold(past);
        const decide = (): Event[] => decider.decide(command, state, now);
        return {
          then(expected: readonly Event[]): State {
            const actual = decide();
            expect(actual).toEqual(expected);
            return fold(actual, state);
          },
          thenRefuses(code: DomainErrorCode, param?: string): DomainError {
            const error = refusalOf(decide);
            expect({ code: error.code, param: error.param }).toEqual({ code, param });
            expect(error.message.length).toBeGreaterThan(0);
            return error;
          },
        };
      },
    };
  }

  /** The event types a command yields, or the code it is refused with: handy for tables. */
  function outcome(past: readonly Event[], command: Command, now: Date): string[] | DomainErrorCode {
    try {
      return decider.decide(command, fold(past), now).map((event) => (event as { type: string }).type);
    } catch (error) {
      if (error instanceof DomainError) return error.code;
      throw error;
    }
  }

  return { given, fold, outcome };
}

export function refusalOf(run: () => unknown): DomainError {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('Expected a DomainError, but the command was accepted');
}
