import { chainLink, ChainedEvent, GENESIS_LINK } from './chain-link';

const EVENT: ChainedEvent = {
  streamId: 'ledger-acc_1-sandbox',
  streamType: 'ledger',
  streamVersion: 1,
  eventId: '00000000-0000-4000-8000-000000000001',
  eventType: 'FundsCredited',
  schemaVersion: 2,
  data: { reference: 'wire-1', amount: '100.00' },
  metadata: {},
  recordedAt: '2026-03-01T12:00:00.123456Z',
};

describe('a chain link', () => {
  // The same value from `sha256sum` over the documented input (docs/audit.md): a test vector for
  // auditors who recompute the chain with their own tools.
  it('is sha256 of the JSON array of the previous link and the event columns', () => {
    expect(chainLink(GENESIS_LINK, EVENT)).toBe(
      'a938699a06c26dbce33ba2568565caace871405568655c0b084cb4d7b2ed4456',
    );
  });

  it('changes with any covered column and with the previous link', () => {
    const base = chainLink(GENESIS_LINK, EVENT);
    const variants: ChainedEvent[] = [
      { ...EVENT, data: { ...(EVENT.data as object), amount: '100.01' } },
      { ...EVENT, metadata: { by: 'x' } },
      { ...EVENT, streamVersion: 2 },
      { ...EVENT, eventId: '00000000-0000-4000-8000-000000000002' },
      { ...EVENT, recordedAt: '2026-03-01T12:00:00.123457Z' },
      { ...EVENT, schemaVersion: 1 },
    ];
    for (const variant of variants) expect(chainLink(GENESIS_LINK, variant)).not.toBe(base);
    expect(chainLink(base, EVENT)).not.toBe(base);
  });
});
