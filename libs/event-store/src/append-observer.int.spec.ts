import { testBackends, TestDatabase } from '@payouts/testing';
import { StreamVersionConflictError } from './errors';
import { AppendObserver } from './append-observer';
import { PostgresEventStore } from './postgres/postgres-event-store';

describe.each(testBackends())('the append observer (the metrics of appends), on $name', (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await backend.open();
  });
  afterAll(() => database.drop());

  it('is told of every append with its duration and outcome: ok, conflict or error', async () => {
    const told: [number, string][] = [];
    const observer: AppendObserver = { appended: (seconds, outcome) => told.push([seconds, outcome]) };
    const store = new PostgresEventStore(database.db, { observer });
    const append = (expectedVersion: number, events = [{ type: 'E', schemaVersion: 1, data: {} }]) =>
      store.append([{ streamId: 'observed-1', streamType: 'observed', expectedVersion, events }]);

    await append(0);
    await expect(append(0)).rejects.toThrow(StreamVersionConflictError);
    await expect(append(1, [])).rejects.toThrow(RangeError);
    await append(1);

    expect(told.map(([, outcome]) => outcome)).toEqual(['ok', 'conflict', 'error', 'ok']);
    for (const [seconds] of told) {
      expect(seconds).toBeGreaterThanOrEqual(0);
      expect(seconds).toBeLessThan(60);
    }
  });
});
