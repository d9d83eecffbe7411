import { GroupingQueue, GroupMember, settleGroup } from './grouping-queue';

interface Item extends GroupMember {
  name: string;
  resolve(result: string): void;
}

function item(name: string, keys: string[] = [], weight = 1): Item & { outcome: Promise<string> } {
  let resolve!: (value: string) => void;
  let fail!: (error: unknown) => void;
  const outcome = new Promise<string>((res, rej) => {
    resolve = res;
    fail = rej;
  });
  return { name, keys, weight, resolve, fail, outcome };
}

/** A run that records each group and settles it when the test says so. */
function recordingRun() {
  const groups: string[][] = [];
  const pending: (() => void)[] = [];
  const run = (group: Item[]) => {
    groups.push(group.map((member) => member.name));
    return new Promise<void>((done) => {
      pending.push(() => {
        for (const member of group) member.resolve(member.name);
        done();
      });
    });
  };
  const finishNext = async () => {
    pending.shift()?.();
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { groups, run, finishNext };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('GroupingQueue', () => {
  it('puts members that arrive in the same turn into one group', async () => {
    const { groups, run, finishNext } = recordingRun();
    const queue = new GroupingQueue<Item>({ maxWeight: 10, maxInFlight: 1 }, run);
    const items = ['a', 'b', 'c'].map((name) => item(name));
    items.forEach((member) => queue.add(member));
    await turn();
    expect(groups).toEqual([['a', 'b', 'c']]);
    await finishNext();
    await expect(Promise.all(items.map((member) => member.outcome))).resolves.toEqual(['a', 'b', 'c']);
  });

  it('lets members that come while the groups in flight are at the limit form the next group', async () => {
    const { groups, run, finishNext } = recordingRun();
    const queue = new GroupingQueue<Item>({ maxWeight: 10, maxInFlight: 1 }, run);
    queue.add(item('a'));
    await turn();
    queue.add(item('b'));
    queue.add(item('c'));
    await turn();
    expect(groups).toEqual([['a']]);
    expect(queue.waiting).toBe(2);
    await finishNext();
    expect(groups).toEqual([['a'], ['b', 'c']]);
    expect(queue.waiting).toBe(0);
  });

  it('keeps a group within its weight, and runs a member heavier than a group alone', async () => {
    const { groups, run, finishNext } = recordingRun();
    const queue = new GroupingQueue<Item>({ maxWeight: 3, maxInFlight: 1 }, run);
    queue.add(item('heavy', [], 5));
    queue.add(item('a', [], 2));
    queue.add(item('b', [], 1));
    queue.add(item('c', [], 1));
    await turn();
    await finishNext();
    await finishNext();
    expect(groups).toEqual([['heavy'], ['a', 'b'], ['c']]);
  });

  it('never runs one key in two groups at once, and runs work on a key in the order it came', async () => {
    const { groups, run, finishNext } = recordingRun();
    const queue = new GroupingQueue<Item>({ maxWeight: 10, maxInFlight: 2 }, run);
    queue.add(item('first on k', ['k']));
    queue.add(item('second on k', ['k']));
    queue.add(item('other', ['j']));
    await turn();
    // 'second on k' waits although a second group could start: its key is in the running one.
    expect(groups).toEqual([['first on k', 'other']]);
    await finishNext();
    expect(groups).toEqual([['first on k', 'other'], ['second on k']]);
  });

  it('fails every member of a group whose run failed without settling it', async () => {
    const failure = new Error('run broke');
    const queue = new GroupingQueue<Item>({ maxWeight: 10, maxInFlight: 1 }, () => Promise.reject(failure));
    const items = [item('a'), item('b')];
    items.forEach((member) => queue.add(member));
    for (const member of items) await expect(member.outcome).rejects.toBe(failure);
  });

  it('refuses limits that cannot work', () => {
    const run = () => Promise.resolve();
    expect(() => new GroupingQueue<Item>({ maxWeight: 0, maxInFlight: 1 }, run)).toThrow(RangeError);
    expect(() => new GroupingQueue<Item>({ maxWeight: 1, maxInFlight: 0.5 }, run)).toThrow(RangeError);
  });
});

describe('settleGroup', () => {
  const work = (failing: { together?: unknown; alone?: string } = {}) => {
    const calls: string[] = [];
    return {
      calls,
      work: {
        alone: (member: Item) => {
          calls.push(`alone ${member.name}`);
          return member.name === failing.alone
            ? Promise.reject(new Error(`${member.name} refused`))
            : Promise.resolve(`${member.name} alone`);
        },
        together: (group: Item[]) => {
          calls.push(`together ${group.map((member) => member.name).join(',')}`);
          return failing.together !== undefined
            ? Promise.reject(failing.together)
            : Promise.resolve(group.map((member) => `${member.name} together`));
        },
        runsAgainAlone: (error: unknown) => error === 'one member',
      },
    };
  };

  it('runs a group together and gives each member its own result', async () => {
    const { calls, work: w } = work();
    const items = [item('a'), item('b')];
    await settleGroup(items, w);
    expect(calls).toEqual(['together a,b']);
    await expect(Promise.all(items.map((member) => member.outcome))).resolves.toEqual([
      'a together',
      'b together',
    ]);
  });

  it('runs a group of one alone', async () => {
    const { calls, work: w } = work();
    const only = item('a');
    await settleGroup([only], w);
    expect(calls).toEqual(['alone a']);
    await expect(only.outcome).resolves.toBe('a alone');
  });

  it('runs each member again alone after a failure that may be one member’s, so only it fails', async () => {
    const { calls, work: w } = work({ together: 'one member', alone: 'b' });
    const items = [item('a'), item('b'), item('c')];
    await settleGroup(items, w);
    expect(calls).toEqual(['together a,b,c', 'alone a', 'alone b', 'alone c']);
    await expect(items[0]!.outcome).resolves.toBe('a alone');
    await expect(items[1]!.outcome).rejects.toThrow('b refused');
    await expect(items[2]!.outcome).resolves.toBe('c alone');
  });

  it('gives any other failure to every member and runs nothing again', async () => {
    const failure = new Error('outcome unknown');
    const { calls, work: w } = work({ together: failure });
    const items = [item('a'), item('b')];
    await settleGroup(items, w);
    expect(calls).toEqual(['together a,b']);
    for (const member of items) await expect(member.outcome).rejects.toBe(failure);
  });
});
