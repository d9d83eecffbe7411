let due: (() => void)[] | undefined;

/**
 * Runs `work` when the event loop's current turn has done its I/O callbacks (one setImmediate for
 * every piece of work due then, in the order given). Work given while that runs joins it, so what
 * one piece starts at the turn's end (a batched look-up's statement) is finished in the same turn
 * (its socket uncorked) rather than a whole turn later.
 */
export function atTurnEnd(work: () => void): void {
  if (due) {
    due.push(work);
    return;
  }
  due = [work];
  setImmediate(runDue);
}

function runDue(): void {
  const pieces = due!;
  try {
    for (let i = 0; i < pieces.length; i += 1) pieces[i]!();
  } finally {
    due = undefined;
  }
}
