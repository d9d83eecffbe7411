import { ApiProperty } from '@nestjs/swagger';

/** GET /health: the process answers. */
export class LiveResponse {
  @ApiProperty({ type: String, enum: ['ok'] })
  status!: 'ok';
}

/** GET /health/ready: migrations applied and the projector not too far behind (503 `not_ready` otherwise). */
export class ReadyResponse {
  @ApiProperty({ type: String, enum: ['ready'] })
  status!: 'ready';

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description: 'Events the read-model projector is behind (at most READINESS_MAX_LAG_EVENTS)',
  })
  projection_lag!: number;
}
