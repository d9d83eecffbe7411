import { runApp } from '@payouts/platform';
import { ApiGatewayAppModule } from './api-gateway-app.module';
import { setupOpenApi } from './openapi/openapi';

void runApp('api-gateway', (config) => ApiGatewayAppModule.forRoot(config), setupOpenApi);
