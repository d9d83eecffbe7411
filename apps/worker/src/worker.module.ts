import { Injectable, Logger, Module, OnApplicationBootstrap } from '@nestjs/common';

/**
 * Runs what time or the outside world triggers: expiry timers, sending through the payout rail,
 * the float queue and e-mail. Those jobs arrive with the recipient flow; until then the worker
 * starts, reports healthy and does nothing.
 */
@Injectable()
class WorkerJobs implements OnApplicationBootstrap {
  onApplicationBootstrap(): void {
    new Logger('Worker').log('started; no jobs registered yet');
  }
}

@Module({ providers: [WorkerJobs] })
export class WorkerModule {}
