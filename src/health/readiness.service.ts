/** What readiness checks: the database answers and takes writes (no standby), and Redis when fan-out uses it. */
import { Inject, Injectable, Optional } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import type { HealthIndicatorFunction } from '@nestjs/terminus';
import { PrismaService } from '../database/prisma.service';
import { REDIS_PING } from '../realtime/realtime.module';
import type { RedisPing } from '../realtime/realtime.module';

@Injectable()
export class ReadinessService {
  constructor(
    private readonly indicator: HealthIndicatorService,
    private readonly prisma: PrismaService,
    @Optional() @Inject(REDIS_PING) private readonly redisPing?: RedisPing,
  ) {}

  checks(): HealthIndicatorFunction[] {
    const checks = [() => this.probe('database', () => this.prisma.writable())];
    const ping = this.redisPing;
    if (ping) checks.push(() => this.probe('redis', ping));
    return checks;
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
