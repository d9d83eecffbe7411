import { Command } from '@nestjs/cqrs';
import type { OrderDeclineReason, OrderIn } from '@payouts/domain';
import type { PaymentInstrumentInput } from '../acquirer/acquirer.port';

/** The payer's attempt on the hosted page: the order by its page token's hash, and what they typed. */
export class PayOrderCommand extends Command<PayOrderResult> {
  constructor(
    readonly orderId: number,
    readonly instrument: PaymentInstrumentInput,
  ) {
    super();
  }
}

export type PayOrderResult =
  | { paid: true; order: OrderIn<'SUCCESS'> }
  | { paid: false; reason: OrderDeclineReason; order: OrderIn<'PENDING'> };
