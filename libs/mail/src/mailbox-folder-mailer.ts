import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { OnApplicationShutdown } from '@nestjs/common';
import { checkMailMessage, MailMessage, Mailer } from './mailer';

/** A message as the development mailbox keeps it: one JSON file. */
export interface MailboxMessage {
  /** The file name without `.json`; it starts with the time sent, so ids sort by time. */
  id: string;
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  /** ISO 8601. */
  sentAt: string;
}

export type MailboxEntry = Pick<MailboxMessage, 'id' | 'to' | 'subject' | 'sentAt'>;

export interface MailboxFolderMailerOptions {
  /** The clock that stamps messages; unset: the system clock. */
  now?: () => Date;
  /** The oldest messages beyond this many are deleted as new ones arrive. */
  maxMessages?: number;
  /** Delete the folder when the app shuts down: a temporary mailbox (an in-memory DATA_DIR). */
  removeOnShutdown?: boolean;
}

const DEFAULT_MAX_MESSAGES = 1_000;
const DEFAULT_LIST_LIMIT = 50;
const MAX_LIST_LIMIT = 1_000;
/** `2030-01-01T00-00-00.000Z-<16 hex>`: an ISO time with `-` for `:` (legal in every file system). */
const ID_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{3}Z-[0-9a-f]{16}$/;

/**
 * The development mailbox, used when SMTP_URL is unset: each message is written as
 * `<id>.json` under `dir` (DATA_DIR/mailbox) instead of being sent, so a developer can read the
 * codes there or on the development page. Files are written under a temporary name and renamed,
 * so a reader never sees half a message. It holds secrets (codes): it is for development only,
 * and the files are readable by this user only.
 */
export class MailboxFolderMailer implements Mailer, OnApplicationShutdown {
  readonly #dir: string;
  readonly #from: string;
  readonly #now: () => Date;
  readonly #maxMessages: number;
  readonly #removeOnShutdown: boolean;

  constructor(dir: string, from: string, options: MailboxFolderMailerOptions = {}) {
    const maxMessages = options.maxMessages ?? DEFAULT_MAX_MESSAGES;
    if (!Number.isSafeInteger(maxMessages) || maxMessages < 1) {
      throw new RangeError('maxMessages must be a positive integer');
    }
    this.#dir = dir;
    this.#from = from;
    this.#now = options.now ?? (() => new Date());
    this.#maxMessages = maxMessages;
    this.#removeOnShutdown = options.removeOnShutdown ?? false;
  }

  get dir(): string {
    return this.#dir;
  }

  async send(message: MailMessage): Promise<void> {
    checkMailMessage(message);
    const sentAt = this.#now();
    const id = `${sentAt.toISOString().replace(/:/g, '-')}-${randomBytes(8).toString('hex')}`;
    const stored: MailboxMessage = {
      id,
      from: this.#from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html ?? null,
      sentAt: sentAt.toISOString(),
    };
    await mkdir(this.#dir, { recursive: true, mode: 0o700 });
    const temporary = join(this.#dir, `.${id}.tmp`);
    await writeFile(temporary, `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
    await rename(temporary, join(this.#dir, `${id}.json`));
    await this.#prune();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.#removeOnShutdown) await rm(this.#dir, { recursive: true, force: true });
  }

  async #prune(): Promise<void> {
    const ids = await messageIds(this.#dir);
    for (const id of ids.slice(0, Math.max(0, ids.length - this.#maxMessages))) {
      await unlink(join(this.#dir, `${id}.json`)).catch(() => undefined); // pruned by another process
    }
  }
}

/** The newest messages first (at most `limit`, default 50). An absent folder is an empty mailbox. */
export async function listMailbox(dir: string, options: { limit?: number } = {}): Promise<MailboxEntry[]> {
  const limit = options.limit ?? DEFAULT_LIST_LIMIT;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_LIST_LIMIT) {
    throw new RangeError(`limit must be an integer from 1 to ${MAX_LIST_LIMIT}`);
  }
  const newest = (await messageIds(dir)).reverse().slice(0, limit);
  const entries: MailboxEntry[] = [];
  for (const id of newest) {
    const message = await readMailboxMessage(dir, id);
    if (message)
      entries.push({ id: message.id, to: message.to, subject: message.subject, sentAt: message.sentAt });
  }
  return entries;
}

/** One message, or null when the id is malformed (never a path outside the folder) or unknown. */
export async function readMailboxMessage(dir: string, id: string): Promise<MailboxMessage | null> {
  if (typeof id !== 'string' || !ID_PATTERN.test(id)) return null;
  let json: string;
  try {
    json = await readFile(join(dir, `${id}.json`), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  return JSON.parse(json) as MailboxMessage;
}

/** Message ids in the folder, oldest first. */
async function messageIds(dir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return names
    .filter((name) => name.endsWith('.json'))
    .map((name) => name.slice(0, -'.json'.length))
    .filter((id) => ID_PATTERN.test(id))
    .sort();
}
