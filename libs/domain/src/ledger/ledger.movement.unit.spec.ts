import {
  matured,
  proceedsRecorded,
  retainedTargetSet,
  settlementFailed,
  settlementPaid,
  settlementStarted,
} from '../testing/funds.fixtures';
import { credited, limitsSet, released, reserved, settled } from '../testing/ledger.fixtures';
import { ZERO_MONEY } from '../money/money';
import { LEDGER_EVENT_SCHEMA_VERSIONS, LedgerEvent } from './ledger.events';
import { evolveLedger } from './ledger.evolve';
import {
  addMovements,
  LEDGER_RUNNING_FIGURES,
  LedgerMovement,
  ledgerMovement,
  movedFigures,
  NO_MOVEMENT,
} from './ledger.movement';
import { initialLedgerState } from './ledger.state';

/** The figures a movement changes, as two-decimal strings; the retained target when it sets one. */
function moved(movement: LedgerMovement): Record<string, string> {
  const changed: Record<string, string> = {};
  for (const figure of LEDGER_RUNNING_FIGURES) {
    if (!movement[figure].eq(ZERO_MONEY)) changed[figure] = movement[figure].toFixed(2);
  }
  if (movement.retainedTarget !== null) changed.retainedTarget = movement.retainedTarget.toFixed(2);
  return changed;
}

const CASES: [string, LedgerEvent, Record<string, string>][] = [
  ['Limits move no money.', limitsSet(), {}],
  [
    'An operator credit is funds in, an operator credit and available.',
    credited('100.00'),
    { fundsIn: '100.00', operatorCredits: '100.00', available: '100.00' },
  ],
  [
    "A reservation moves its total (amount + fee) from available into the customer's payout holds.",
    reserved('po_1', '20.00', 'cust_1', '0.50'),
    { available: '-20.50', customerPayoutHolds: '20.50' },
  ],
  [
    'A release returns the total from the holds to available.',
    released('po_1', '20.50'),
    { available: '20.50', customerPayoutHolds: '-20.50' },
  ],
  [
    'A paid payout moves the total from the holds to settled.',
    settled('po_1', '20.50'),
    { customerPayoutHolds: '-20.50', customerPayoutsSettled: '20.50' },
  ],
  [
    'A paid order records its gross and fee, and its net as pending.',
    proceedsRecorded(7, '100.00', '3.20', '96.80'),
    { grossProceeds: '100.00', processingFees: '3.20', pending: '96.80' },
  ],
  [
    'A cleared net leaves pending for matured proceeds, funds in and available.',
    matured(7, '96.80'),
    { pending: '-96.80', maturedProceeds: '96.80', fundsIn: '96.80', available: '96.80' },
  ],
  [
    "A settlement started moves its amount from available into the merchant's settlement holds.",
    settlementStarted('stl_1', '56.30'),
    { available: '-56.30', merchantSettlementHolds: '56.30' },
  ],
  [
    'A paid settlement leaves the holds for settlements paid.',
    settlementPaid('stl_1', '56.30'),
    { merchantSettlementHolds: '-56.30', settlementsPaid: '56.30' },
  ],
  [
    'A failed settlement returns its amount from the holds to available.',
    settlementFailed('stl_1', '56.30'),
    { merchantSettlementHolds: '-56.30', available: '56.30' },
  ],
  ['A retained target is set, not added.', retainedTargetSet('10.00'), { retainedTarget: '10.00' }],
];

describe('The movement of each ledger event (docs/design.md#funds-flow)', () => {
  it.each(CASES)('%s', (_, event, expected) => {
    expect(moved(ledgerMovement(event))).toEqual(expected);
  });

  it('Every ledger event type has its case above.', () => {
    expect(new Set(CASES.map(([, event]) => event.type))).toEqual(
      new Set(Object.keys(LEDGER_EVENT_SCHEMA_VERSIONS)),
    );
  });

  it('Movements add figure by figure, the later retained target winning; evolveLedger moves by them.', () => {
    const events = [
      limitsSet(),
      credited('100.00'),
      retainedTargetSet('30.00'),
      reserved('po_1', '20.00', 'cust_1', '0.50'),
      proceedsRecorded(7, '10.00', '0.59', '9.41'),
      matured(7, '9.41'),
      released('po_1', '20.50'),
      retainedTargetSet('5.00'),
      settlementStarted('stl_1', '104.41'),
      settlementFailed('stl_1', '104.41'),
    ];
    const total = events.map(ledgerMovement).reduce(addMovements, NO_MOVEMENT);
    expect(moved(total)).toEqual({
      fundsIn: '109.41',
      operatorCredits: '100.00',
      available: '109.41',
      grossProceeds: '10.00',
      processingFees: '0.59',
      maturedProceeds: '9.41',
      retainedTarget: '5.00',
    });
    const state = events.reduce(evolveLedger, initialLedgerState());
    const figures = movedFigures(initialLedgerState(), total);
    for (const figure of [...LEDGER_RUNNING_FIGURES, 'retainedTarget'] as const) {
      expect([figure, state[figure].toFixed(2)]).toEqual([figure, figures[figure].toFixed(2)]);
    }
  });
});
