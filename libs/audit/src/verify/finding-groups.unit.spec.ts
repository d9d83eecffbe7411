import { FindingGroups } from './finding-groups';
import type { Finding, FindingKind } from './findings';

const finding = (kind: FindingKind, position: string, streamId: string, detail: string = kind): Finding => ({
  kind,
  position,
  streamId,
  detail,
});

describe('the findings verify prints', () => {
  it("put the version gap a deleted event leaves under the deletion, and an edited event's refusal under the edit", () => {
    const groups = new FindingGroups();
    groups.add(finding('deleted', '10', 'x'), 5);
    groups.add(finding('illegal_transition', '12', 'y'), 6);
    groups.add(finding('edited', '20', 'z'), 8);
    groups.add(finding('ledger_invariant', '20', 'z', 'available is -1.00'), 8);
    // At the end: the gaps, then what each stopped stream left (a gap's: the events it held).
    groups.add(finding('version_gap', '11', 'x', 'version 3 follows version 1'), 7);
    groups.addConsequence({ streamId: 'x', uncheckedEvents: 3, unpaired: 1 });
    groups.addConsequence({ streamId: 'z', uncheckedEvents: 4, unpaired: 0 });

    expect(groups.kept()).toEqual([
      {
        ...finding('deleted', '10', 'x'),
        consequence: {
          streamId: 'x',
          uncheckedEvents: 3,
          unpaired: 1,
          finding: { kind: 'version_gap', position: '11', detail: 'version 3 follows version 1' },
        },
      },
      finding('illegal_transition', '12', 'y'),
      {
        ...finding('edited', '20', 'z'),
        consequence: {
          streamId: 'z',
          uncheckedEvents: 4,
          unpaired: 0,
          finding: { kind: 'ledger_invariant', position: '20', detail: 'available is -1.00' },
        },
      },
    ]);
    expect(groups.count).toBe(3);
  });

  it('leave a gap that began before the deletion, or on another stream, and a later refusal, on their own', () => {
    const groups = new FindingGroups();
    groups.add(finding('edited', '20', 'z'), 8);
    groups.add(finding('ledger_invariant', '25', 'z'), 9);
    groups.add(finding('deleted', '10', 'x'), 5);
    groups.add(finding('version_gap', '9', 'x'), 4);
    groups.add(finding('version_gap', '11', 'w'), 6);
    groups.addConsequence({ streamId: 'z', uncheckedEvents: 2, unpaired: 0 });
    expect(groups.kept().map((f) => [f.kind, f.streamId, f.consequence?.uncheckedEvents])).toEqual([
      ['edited', 'z', undefined],
      ['ledger_invariant', 'z', 2],
      ['deleted', 'x', undefined],
      ['version_gap', 'x', undefined],
      ['version_gap', 'w', undefined],
    ]);
    expect(groups.count).toBe(5);
  });

  it('keep the first findings up to their limit and count the rest, so a log broken everywhere cannot fill the memory', () => {
    const groups = new FindingGroups(2);
    for (let n = 1; n <= 5; n += 1) groups.add(finding('illegal_transition', String(n), `s${n}`), n);
    groups.addConsequence({ streamId: 's1', uncheckedEvents: 7, unpaired: 0 });
    groups.addConsequence({ streamId: 's4', uncheckedEvents: 7, unpaired: 0 });
    expect(groups.kept().map((f) => [f.position, f.consequence?.uncheckedEvents])).toEqual([
      ['1', 7],
      ['2', undefined],
    ]);
    expect(groups.count).toBe(5);
  });
});
