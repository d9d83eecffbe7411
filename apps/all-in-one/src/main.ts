import { runApp } from '@payouts/platform';
import { AllInOneAppModule } from './all-in-one-app.module';

void runApp('all-in-one', (config) => AllInOneAppModule.forRoot(config));
