import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listMailbox, MailboxFolderMailer, readMailboxMessage } from './mailbox-folder-mailer';

const FROM = 'Payouts <no-reply@localhost>';

describe('the development mailbox folder', () => {
  let root: string;
  let dir: string;
  let ms: number;
  const now = (): Date => new Date(ms);

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'mailbox-'));
    dir = join(root, 'mailbox');
    ms = Date.parse('2030-01-01T09:30:00.000Z');
  });
  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
  });

  it('writes one JSON file per message with to, subject, text, html and the time sent', async () => {
    const mailer = new MailboxFolderMailer(dir, FROM, { now });
    await mailer.send({
      to: 'ada@example.com',
      subject: 'Your code',
      text: 'Code 123456.',
      html: '<b>123456</b>',
    });

    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^2030-01-01T09-30-00\.000Z-[0-9a-f]{16}\.json$/);
    const stored = JSON.parse(readFileSync(join(dir, files[0]!), 'utf8'));
    expect(stored).toEqual({
      id: files[0]!.replace(/\.json$/, ''),
      from: FROM,
      to: 'ada@example.com',
      subject: 'Your code',
      text: 'Code 123456.',
      html: '<b>123456</b>',
      sentAt: '2030-01-01T09:30:00.000Z',
    });
    // Codes are secrets: only this user may read the mailbox.
    expect(statSync(join(dir, files[0]!)).mode & 0o077).toBe(0);
    expect(statSync(dir).mode & 0o077).toBe(0);
  });

  it('lists the newest first and reads each message by id', async () => {
    const mailer = new MailboxFolderMailer(dir, FROM, { now });
    for (const n of [1, 2, 3]) {
      await mailer.send({ to: `r${n}@example.com`, subject: `Message ${n}`, text: `Text ${n}.` });
      ms += 1000;
    }
    const listed = await listMailbox(dir);
    expect(listed.map((m) => m.subject)).toEqual(['Message 3', 'Message 2', 'Message 1']);
    expect(listed[0]).toEqual({
      id: expect.stringMatching(/^2030-01-01T09-30-02\.000Z-/),
      to: 'r3@example.com',
      subject: 'Message 3',
      sentAt: '2030-01-01T09:30:02.000Z',
    });
    await expect(listMailbox(dir, { limit: 2 })).resolves.toHaveLength(2);
    await expect(readMailboxMessage(dir, listed[2]!.id)).resolves.toMatchObject({
      to: 'r1@example.com',
      text: 'Text 1.',
      html: null,
    });
  });

  it('answers an empty mailbox before the first message', async () => {
    await expect(listMailbox(join(root, 'absent'))).resolves.toEqual([]);
  });

  it('reads nothing outside the folder, nor an unknown message', async () => {
    writeFileSync(join(root, 'secret.json'), '{"to":"x"}');
    const mailer = new MailboxFolderMailer(dir, FROM, { now });
    await mailer.send({ to: 'ada@example.com', subject: 'Hi', text: 'Hi.' });
    for (const id of ['../secret', '..%2Fsecret', '', '2030-01-01T09-30-00.000Z-zzzzzzzzzzzzzzzz']) {
      await expect(readMailboxMessage(dir, id)).resolves.toBeNull();
    }
    await expect(readMailboxMessage(dir, '2030-01-01T09-30-00.000Z-0000000000000000')).resolves.toBeNull();
  });

  it('ignores files that are not messages, such as one being written', async () => {
    const mailer = new MailboxFolderMailer(dir, FROM, { now });
    await mailer.send({ to: 'ada@example.com', subject: 'Hi', text: 'Hi.' });
    writeFileSync(join(dir, '.2030-01-01T09-31-00.000Z-0000000000000000.tmp'), '{"half":');
    writeFileSync(join(dir, 'notes.json'), '{}');
    await expect(listMailbox(dir)).resolves.toHaveLength(1);
  });

  it('keeps at most maxMessages, deleting the oldest', async () => {
    const mailer = new MailboxFolderMailer(dir, FROM, { now, maxMessages: 3 });
    for (const n of [1, 2, 3, 4, 5]) {
      await mailer.send({ to: 'ada@example.com', subject: `Message ${n}`, text: 'Hi.' });
      ms += 1;
    }
    expect((await listMailbox(dir)).map((m) => m.subject)).toEqual(['Message 5', 'Message 4', 'Message 3']);
  });

  it('refuses a malformed message and writes nothing', async () => {
    const mailer = new MailboxFolderMailer(dir, FROM, { now });
    await expect(mailer.send({ to: 'not an address', subject: 'Hi', text: 'Hi.' })).rejects.toThrow(
      RangeError,
    );
    await expect(listMailbox(dir)).resolves.toEqual([]);
  });

  it('refuses bad limits', async () => {
    expect(() => new MailboxFolderMailer(dir, FROM, { maxMessages: 0 })).toThrow(RangeError);
    await expect(listMailbox(dir, { limit: 0 })).rejects.toThrow(RangeError);
    await expect(listMailbox(dir, { limit: 1001 })).rejects.toThrow(RangeError);
  });
});
