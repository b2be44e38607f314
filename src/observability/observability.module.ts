/**
 * Structured JSON logs (pino-http: one line per request with its id) and
 * Prometheus metrics at GET /metrics.
 *
 * pino-http directly, not nestjs-pino: the latter keeps each request's logger
 * in an AsyncLocalStorage, which turns on promise hooks for every promise of
 * the process (a few per cent of a play's cost) for a request-scoped logger
 * nothing here uses.
 */
import { Global, Module, RequestMethod } from '@nestjs/common';
import type { MiddlewareConsumer, NestModule } from '@nestjs/common';
import { pinoHttp } from 'pino-http';
import { StoreModule } from '../events/store.module';
import { CommandMetricsService } from './command-metrics.service';
import { MetricsController } from './metrics.controller';
import { MetricsService } from './metrics.service';
import { requestId } from './request-id';

const LEVEL = process.env.LOG_LEVEL ?? (process.env.NODE_ENV === 'test' ? 'silent' : 'info');

export function requestLogger() {
  return pinoHttp({
    level: LEVEL,
    genReqId: requestId,
    customProps: () => ({ instance: process.env.INSTANCE_ID ?? 'local' }),
    // bodies can hold passwords and tokens: log neither
    redact: ['req.headers.authorization', 'req.headers.cookie'],
    // silent: not even the per-request line is built (it costs more than many a request)
    autoLogging: LEVEL !== 'silent' && { ignore: (req) => req.url === '/health' || req.url === '/metrics' },
  });
}

@Global()
@Module({
  imports: [StoreModule],
  controllers: [MetricsController],
  providers: [MetricsService, CommandMetricsService],
  exports: [MetricsService],
})
export class ObservabilityModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(requestLogger()).forRoutes({ path: '{/*splat}', method: RequestMethod.ALL });
  }
}
