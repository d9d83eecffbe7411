export interface GroupingLimits {
  /** The most weight one group carries: streams in one append, statements in one transaction. */
  maxWeight: number;
  /** Groups running at once; members that come meanwhile wait and form the next group. */
  maxInFlight: number;
}

export interface GroupMember {
  /** What two running groups must never share (stream ids, say); a member waits for its key. */
  readonly keys: readonly string[];
  /** Its share of a group's maxWeight; a member heavier than that runs in a group of its own. */
  readonly weight: number;
  /** Called when its group's run failed without settling it. */
  fail(error: unknown): void;
}

/**
 * Forms groups of work that concurrent requests hand in, for one database round trip and one
 * COMMIT where each would have had its own (group commit). A group starts at once when fewer
 * than maxInFlight are running, after the current turn of the event loop so that requests which
 * arrived together go together; members that come while the limit is reached wait and form the
 * next group. Members are taken first come, first served; one whose key is in the group, or in a
 * running one, waits at the head of the queue, so work on one key runs in the order it came.
 * Writes are what it groups (the Committer's plans, GroupedWrites' rows), so it is the write
 * side's; the SQL client under it only runs what a group sends.
 */
export class GroupingQueue<M extends GroupMember> {
  private readonly queue: M[] = [];
  private readonly busy = new Set<string>();
  private inFlight = 0;
  private scheduled = false;

  constructor(
    private readonly limits: GroupingLimits,
    /** Runs one group and settles every member of it. */
    private readonly run: (group: M[]) => Promise<void>,
  ) {
    if (!Number.isInteger(limits.maxWeight) || limits.maxWeight < 1) {
      throw new RangeError('maxWeight must be a positive integer');
    }
    if (!Number.isInteger(limits.maxInFlight) || limits.maxInFlight < 1) {
      throw new RangeError('maxInFlight must be a positive integer');
    }
  }

  add(member: M): void {
    this.queue.push(member);
    this.schedule();
  }

  /** Members still waiting for a group. */
  get waiting(): number {
    return this.queue.length;
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight >= this.limits.maxInFlight || this.queue.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.start();
    });
  }

  private start(): void {
    while (this.inFlight < this.limits.maxInFlight && this.queue.length > 0) {
      const group = this.take();
      if (group.length === 0) return; // every waiting member's key is in a running group
      const keys = group.flatMap((member) => member.keys);
      for (const key of keys) this.busy.add(key);
      this.inFlight += 1;
      void this.run(group)
        .catch((error: unknown) => {
          for (const member of group) member.fail(error);
        })
        .finally(() => {
          for (const key of keys) this.busy.delete(key);
          this.inFlight -= 1;
          this.schedule();
        });
    }
  }

  private take(): M[] {
    const group: M[] = [];
    const keys = new Set<string>();
    let weight = 0;
    const left: M[] = [];
    for (const member of this.queue) {
      // The first member always fits, so one heavier than a group still runs, alone.
      const fits =
        (group.length === 0 || weight + member.weight <= this.limits.maxWeight) &&
        member.keys.every((key) => !keys.has(key) && !this.busy.has(key));
      if (fits) {
        group.push(member);
        weight += member.weight;
        for (const key of member.keys) keys.add(key);
      } else {
        left.push(member);
      }
    }
    this.queue.splice(0, this.queue.length, ...left);
    return group;
  }
}

export interface GroupWork<M, R> {
  /** Runs one member on its own, as if there were no grouping. */
  alone(member: M): Promise<R>;
  /** Runs the group in one transaction, with one result a member, in the group's order. */
  together(group: M[]): Promise<R[]>;
  /** A failure of `together` that wrote nothing and may be one member's: each then runs alone. */
  runsAgainAlone(error: unknown): boolean;
}

/**
 * The run of one group that keeps each member's outcome its own: a group of one runs alone; a
 * larger group runs together, and when that failed in a way that wrote nothing and may concern
 * one member, each member runs again alone, so only the one concerned hears of it. Any other
 * failure (one whose outcome may be unknown) reaches every member as it is and runs nothing again.
 */
export async function settleGroup<M extends GroupMember & { resolve(result: R): void }, R>(
  group: M[],
  work: GroupWork<M, R>,
): Promise<void> {
  const runAlone = (member: M) =>
    work.alone(member).then(
      (result) => member.resolve(result),
      (error: unknown) => member.fail(error),
    );
  if (group.length === 1) return runAlone(group[0]!);
  let results: R[];
  try {
    results = await work.together(group);
  } catch (error) {
    if (!work.runsAgainAlone(error)) {
      for (const member of group) member.fail(error);
      return;
    }
    await Promise.all(group.map(runAlone));
    return;
  }
  group.forEach((member, i) => member.resolve(results[i]!));
}
