import { runApp } from '@payouts/platform';
import { ProjectorAppModule } from './projector-app.module';

void runApp('projector', (config) => ProjectorAppModule.forRoot(config));
