import { ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { FEED_EVENT_TYPES } from '@payouts/events-feed';
import { PaymentOrder } from '../checkout/checkout.schemas';
import { BalanceTransaction, SettlementView } from './funds.schemas';
import { PayoutMerchantView } from './payout.schemas';

/** The resources a feed event's `data` can be, for @ApiExtraModels. */
export const FEED_DATA_MODELS = [PayoutMerchantView, PaymentOrder, SettlementView, BalanceTransaction];

export class FeedEvent {
  @ApiProperty({
    type: String,
    pattern: '^evt_[0-9a-z_]+$',
    description:
      "Unique in the feed. A paid payout's `payout.updated` has its payout webhook's id, so a receiver de-duplicates across both.",
  })
  id!: string;

  @ApiProperty({ type: String, enum: FEED_EVENT_TYPES })
  type!: string;

  @ApiProperty({ type: String, format: 'date-time', description: 'When the event was recorded' })
  created_at!: string;

  @ApiProperty({
    description:
      'The resource as its Get answered it at that moment: a payout (payout.*), a payment order (order.*), a settlement (settlement.*) or a balance transaction (balance.transaction)',
    oneOf: FEED_DATA_MODELS.map((model) => ({ $ref: getSchemaPath(model) })),
  })
  data!: PayoutMerchantView | PaymentOrder | SettlementView | BalanceTransaction;
}

export class EventsPage {
  @ApiProperty({ type: [FeedEvent], description: 'Oldest first, in the order the events were committed' })
  data!: FeedEvent[];

  @ApiProperty({ description: 'True when more events follow this page now' })
  has_more!: boolean;

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'Pass as `after` for the next page: the last event of this page, or the `after` you sent when the page is empty (null when neither)',
  })
  next_after!: string | null;
}
