import type { ComponentChildren } from 'preact';
import { LocalTime } from './local-time';

export interface TimelineEntry {
  /** A stable key (the event's id). */
  id: string;
  at: Date | string;
  /** What happened, in words ("Payout created", "Claimed by the recipient"). */
  title: string;
  detail?: ComponentChildren;
}

export interface TimelineProps {
  /** The heading above it (an h2). */
  heading: string;
  entries: readonly TimelineEntry[];
  timeZone: string;
}

/** What happened to a resource, oldest first, as read from its events in the event store. */
export function Timeline({ heading, entries, timeZone }: TimelineProps) {
  return (
    <section aria-labelledby="timeline-heading">
      <h2 id="timeline-heading">{heading}</h2>
      <ol class="timeline">
        {entries.map((entry) => (
          <li key={entry.id}>
            <LocalTime at={entry.at} timeZone={timeZone} />
            <p class="timeline-title">{entry.title}</p>
            {entry.detail ? <div class="timeline-detail">{entry.detail}</div> : null}
          </li>
        ))}
      </ol>
    </section>
  );
}
