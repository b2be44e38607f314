/**
 * Liveness (GET /health: the process answers) and readiness (GET
 * /health/ready: the database answers, and Redis when fan-out uses it). A
 * load balancer sends traffic only to ready instances.
 */
import { Controller, Get, Inject, Optional } from '@nestjs/common';
import { HealthCheck, HealthCheckService, HealthIndicatorService } from '@nestjs/terminus';
import type { HealthCheckResult } from '@nestjs/terminus';
import { SkipRateLimit } from '../auth/throttle.guard';
import { Public } from '../common/public.decorator';
import { PrismaService } from '../database/prisma.service';

/** Provided by the realtime module when REDIS_URL is set: resolves when Redis answers. */
export const REDIS_PING = Symbol('REDIS_PING');
export type RedisPing = () => Promise<unknown>;

@Public()
@SkipRateLimit()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicator: HealthIndicatorService,
    private readonly prisma: PrismaService,
    @Optional() @Inject(REDIS_PING) private readonly redisPing?: RedisPing,
  ) {}

  @Get()
  check(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  @HealthCheck()
  ready(): Promise<HealthCheckResult> {
    const checks = [() => this.probe('database', () => this.prisma.$queryRawUnsafe('SELECT 1'))];
    const ping = this.redisPing;
    if (ping) checks.push(() => this.probe('redis', ping));
    return this.health.check(checks);
  }

  private async probe(key: string, call: () => Promise<unknown>) {
    const session = this.indicator.check(key);
    try {
      await Promise.race([call(), new Promise((_, reject) => setTimeout(() => reject(new Error('timed out')), 2000).unref())]);
      return session.up();
    } catch (err) {
      return session.down({ message: (err as Error).message });
    }
  }
}
