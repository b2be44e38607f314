/**
 * Liveness (GET /health: the process answers) and readiness (GET
 * /health/ready: the database answers, and Redis when fan-out uses it). A
 * load balancer sends traffic only to ready instances.
 */
import { Controller, Get } from '@nestjs/common';
import { HealthCheck, HealthCheckService } from '@nestjs/terminus';
import type { HealthCheckResult } from '@nestjs/terminus';
import { SkipRateLimit } from '../common/public.decorator';
import { Public } from '../common/public.decorator';
import { ReadinessService } from './readiness.service';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { ApiErrors, ApiOmitErrors } from '../common/api-errors';

@Public()
@SkipRateLimit()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly readiness: ReadinessService,
  ) {}

  @Get()
  @ApiOmitErrors('SERVICE_UNAVAILABLE')
  @ApiOperation({ operationId: 'check', summary: 'Liveness: the process answers' })
  @ApiOkResponse({
    description: 'The process answers.',
    schema: { type: 'object', required: ['status'], properties: { status: { type: 'string', enum: ['ok'] } } },
  })
  check(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  @HealthCheck()
  @ApiOperation({ operationId: 'ready', summary: 'Readiness: the database (and Redis when fan-out uses it) answers; 503 when not' })
  @ApiOkResponse({
    description: 'Ready: each check (database, Redis) and its status (@nestjs/terminus).',
    schema: {
      type: 'object',
      required: ['status'],
      properties: {
        status: { type: 'string', enum: ['ok'] },
        info: { type: 'object', additionalProperties: true },
        error: { type: 'object', additionalProperties: true },
        details: { type: 'object', additionalProperties: true },
      },
    },
  })
  @ApiErrors('UNAVAILABLE')
  @ApiOmitErrors('SERVICE_UNAVAILABLE')
  ready(): Promise<HealthCheckResult> {
    return this.health.check(this.readiness.checks());
  }
}
