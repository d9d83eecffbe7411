import { seededRandom } from '../../../libs/domain/src/testing/seeded-random';

/** The builder's dice: seeded, so a run can be repeated with the same traffic. */
export type Random = ReturnType<typeof seededRandom>;
export { seededRandom };

/** An amount from `min`.00 to `max`.99 as the API receives it (a decimal string, never a number). */
export function randomCents(random: Random, min: number, max: number): string {
  return `${random.int(min, max)}.${String(random.int(0, 99)).padStart(2, '0')}`;
}
