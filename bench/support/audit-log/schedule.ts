/** Work due at a simulated time: a recipient confirming, the worker expiring, the nightly run. */
interface Task {
  at: number;
  seq: number;
  run: () => void;
}

/**
 * The simulated clock and what is due on it, a binary heap by time (then by order of scheduling,
 * so two tasks due together run in the order they were planned).
 */
export class Schedule {
  private readonly heap: Task[] = [];
  private seq = 0;

  constructor(public nowMs: number) {}

  get now(): Date {
    return new Date(this.nowMs);
  }

  at(atMs: number, run: () => void): void {
    this.heap.push({ at: Math.max(atMs, this.nowMs), seq: (this.seq += 1), run });
    this.up(this.heap.length - 1);
  }

  after(ms: number, run: () => void): void {
    this.at(this.nowMs + ms, run);
  }

  /** Moves the clock to `toMs`, running every task due by then, each at its own time. */
  advance(toMs: number): void {
    for (let next = this.heap[0]; next !== undefined && next.at <= toMs; next = this.heap[0]) {
      this.pop();
      this.nowMs = Math.max(this.nowMs, next.at);
      next.run();
    }
    this.nowMs = Math.max(this.nowMs, toMs);
  }

  private pop(): void {
    const last = this.heap.pop();
    if (last === undefined || this.heap.length === 0) return;
    this.heap[0] = last;
    this.down(0);
  }

  private before(a: number, b: number): boolean {
    const [x, y] = [this.heap[a]!, this.heap[b]!];
    return x.at < y.at || (x.at === y.at && x.seq < y.seq);
  }

  private swap(a: number, b: number): void {
    [this.heap[a], this.heap[b]] = [this.heap[b]!, this.heap[a]!];
  }

  private up(index: number): void {
    for (let i = index; i > 0 && this.before(i, (i - 1) >> 1); i = (i - 1) >> 1) this.swap(i, (i - 1) >> 1);
  }

  private down(index: number): void {
    for (let i = index; ;) {
      const [left, right] = [2 * i + 1, 2 * i + 2];
      let least = i;
      if (left < this.heap.length && this.before(left, least)) least = left;
      if (right < this.heap.length && this.before(right, least)) least = right;
      if (least === i) return;
      this.swap(i, least);
      i = least;
    }
  }
}
