/**
 * Thrown by one writer's work inside a transaction it may share with others (a group commit), for
 * a reason that is that writer's alone, such as a row only it inserts being taken already. The
 * transaction rolls back, nothing of it is written, and a group runs each writer again alone, so
 * only this one hears of it.
 */
export class OneWriterRefusal extends Error {}
