import type { SqlClient } from '@payouts/database';

/**
 * Order ids: integers unique across the service (docs/design.md#orders-and-their-states), from one
 * sequence, taken before the order's stream is written. An id taken by a create that is then
 * refused is a harmless gap.
 */
export class OrderIds {
  constructor(private readonly db: SqlClient) {}

  async next(): Promise<number> {
    const { rows } = await this.db.query<{ id: string }>(`SELECT nextval('checkout_order_ids')::text AS id`);
    const id = Number(rows[0]!.id);
    if (!Number.isSafeInteger(id)) throw new Error('checkout order ids ran past 2^53');
    return id;
  }
}
