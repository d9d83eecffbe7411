import { mkdir, open, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';

export type OrderStatus = 'pending' | 'paid' | 'expired';

/**
 * Who told the shop about a change: its own call, a webhook, the events feed when catching up, or
 * the order's or payout's status asked for when the feed no longer had the events.
 */
export type Source = 'shop' | 'webhook' | 'feed' | 'status';

export interface Change {
  status: string;
  source: Source;
  at: string;
}

export interface OrderRecord {
  id: number;
  product: string;
  /** As the service answered it: "24.90". */
  amount: string;
  currency: string;
  customer: string;
  status: OrderStatus;
  /** Every status the shop recorded, once each: a webhook and the feed telling the same change add one entry. */
  history: Change[];
}

export interface RefundRecord {
  payout_id: string;
  order_id: number;
  merchant_reference: string;
  amount: string;
  /** The payout's status (awaiting_choice, processing, paid, failed, …) and its version. */
  status: string;
  status_version: number;
  history: Change[];
}

export interface ShopData {
  /** By order id. */
  orders: Record<string, OrderRecord>;
  /** By payout id. */
  refunds: Record<string, RefundRecord>;
  /** Ids of the webhook and feed events already applied (a paid payout's webhook and feed event share one). */
  seen_event_ids: string[];
  /** The feed's last event applied: the next start asks for everything after it. */
  last_event_id: string | null;
}

const emptyData = (): ShopData => ({ orders: {}, refunds: {}, seen_event_ids: [], last_event_id: null });

/** The shop's records: one JSON file in DATA_DIR, read at start, kept in memory, rewritten on every change. */
export class Store {
  private writing: Promise<void> = Promise.resolve();

  private constructor(
    private readonly file: string,
    readonly data: ShopData,
  ) {}

  static async open(dataDir: string): Promise<Store> {
    await mkdir(dataDir, { recursive: true });
    const file = join(dataDir, 'shop.json');
    const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    return new Store(file, text === undefined ? emptyData() : (JSON.parse(text) as ShopData));
  }

  /**
   * Changes the records in memory at once (so the next request sees the change), then writes them.
   * Resolves when this change is on disk. Writes go one after another, each a whole file.
   */
  update(change: (data: ShopData) => void): Promise<void> {
    change(this.data);
    const text = JSON.stringify(this.data, null, 2);
    const written = this.writing.then(() => this.write(text));
    this.writing = written.catch(() => undefined);
    return written;
  }

  /** Resolves when every change so far is on disk. */
  flushed(): Promise<void> {
    return this.writing;
  }

  /** A new file beside the old one, flushed to disk, then renamed over it: a crash leaves the old records or the new, never half of each. */
  private async write(text: string): Promise<void> {
    const temporary = `${this.file}.tmp`;
    const handle = await open(temporary, 'w');
    try {
      await handle.writeFile(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, this.file);
  }
}
