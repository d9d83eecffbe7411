import { ApiProperty } from '@nestjs/swagger';

/** GET /health: the process answers. */
export class LiveResponse {
  @ApiProperty({ type: String, enum: ['ok'] })
  status!: 'ok';
}

/** GET /health/ready: migrations applied and the projector caught up (503 `not_ready` until then). */
export class ReadyResponse {
  @ApiProperty({ type: String, enum: ['ready'] })
  status!: 'ready';

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Events the read-model projector is behind' })
  projection_lag!: number;
}
