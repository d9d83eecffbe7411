import { runApp } from '@payouts/platform';
import { ApiGatewayAppModule } from './api-gateway-app.module';

void runApp('api-gateway', (config) => ApiGatewayAppModule.forRoot(config));
