import { Module } from '@nestjs/common';
import { KafkaRelay } from './kafka-relay';
import { ReadModelProjector } from './read-model-projector';

@Module({ providers: [ReadModelProjector, KafkaRelay], exports: [ReadModelProjector, KafkaRelay] })
export class ProjectorModule {}
