import { runApp } from '@payouts/platform';
import { setupOpenApi } from '../../api-gateway/src/openapi/openapi';
import { AllInOneAppModule } from './all-in-one-app.module';

void runApp('all-in-one', (config) => AllInOneAppModule.forRoot(config), setupOpenApi);
