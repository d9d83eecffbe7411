import { Injectable, Logger, Module, OnApplicationBootstrap } from '@nestjs/common';

/**
 * Consumes payout events and delivers signed webhooks. Delivery arrives with the Kafka relay;
 * until then the dispatcher starts, reports healthy and does nothing.
 */
@Injectable()
class WebhookDelivery implements OnApplicationBootstrap {
  onApplicationBootstrap(): void {
    new Logger('WebhookDispatcher').log('started; no delivery transport configured yet');
  }
}

@Module({ providers: [WebhookDelivery] })
export class WebhookDispatcherModule {}
