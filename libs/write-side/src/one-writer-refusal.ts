/**
 * Thrown by one writer's work inside a transaction it may share with others (a group commit), for
 * a reason that is that writer's alone, such as a row only it inserts being taken already. The
 * transaction rolls back, nothing of it is written, and a group runs each writer again alone, so
 * only this one hears of it. The group commit is what acts on it (rolledBackForOnePlan in
 * committer.ts), so it lives beside it; libs/idempotency raises it (IdempotencyKeyTakenError).
 */
export class OneWriterRefusal extends Error {}
