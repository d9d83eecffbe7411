import { runApp } from '@payouts/platform';
import { WorkerAppModule } from './worker-app.module';

void runApp('worker', (config) => WorkerAppModule.forRoot(config));
