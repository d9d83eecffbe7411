import { Module } from '@nestjs/common';
import { ReadModelProjector } from './read-model-projector';

@Module({ providers: [ReadModelProjector], exports: [ReadModelProjector] })
export class ProjectorModule {}
