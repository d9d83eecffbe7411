/** The parts of a recorded event the projections need (the event store's RecordedEvent has them). */
export interface ProjectableEvent {
  streamId: string;
  streamType: string;
  streamVersion: number;
  type: string;
  schemaVersion: number;
  data: unknown;
}

/** True when the events (sorted by version) follow each other without a gap. */
export function isContiguous(events: readonly ProjectableEvent[]): boolean {
  return events.every((event, i) => i === 0 || event.streamVersion === events[i - 1]!.streamVersion + 1);
}
