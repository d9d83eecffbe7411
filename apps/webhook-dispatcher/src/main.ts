import { runApp } from '@payouts/platform';
import { WebhookDispatcherAppModule } from './webhook-dispatcher-app.module';

void runApp('webhook-dispatcher', (config) => WebhookDispatcherAppModule.forRoot(config));
