import { Module } from '@nestjs/common';
import { ChainKeeper } from './chain-keeper';
import { KafkaRelay } from './kafka-relay';
import { ReadModelProjector } from './read-model-projector';

@Module({
  providers: [ReadModelProjector, KafkaRelay, ChainKeeper],
  exports: [ReadModelProjector, KafkaRelay, ChainKeeper],
})
export class ProjectorModule {}
