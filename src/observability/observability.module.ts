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

/** pino-http hands these its own serialized request and response (wrapSerializers). */
const conciseRequest = (req: { id?: unknown; method?: string; url?: string }) => ({ id: req.id, method: req.method, url: req.url });
const conciseResponse = (res: { statusCode?: number }) => ({ statusCode: res.statusCode });

/** The request log at `level`, to stdout or `destination`. */
export function requestLogger(level: string = LEVEL, destination?: NodeJS.WritableStream) {
  const verbose = level === 'debug' || level === 'trace';
  return pinoHttp(
    {
      level,
      genReqId: requestId,
      customProps: () => ({ instance: process.env.INSTANCE_ID ?? 'local' }),
      // bodies can hold passwords and tokens: log neither
      redact: ['req.headers.authorization', 'req.headers.cookie'],
      // silent: not even the per-request line is built (it costs more than many a request)
      autoLogging: level !== 'silent' && { ignore: (req) => req.url === '/health' || req.url === '/metrics' },
      // One concise line per request; every header only at debug (they made 54 MB an hour of play).
      serializers: verbose ? undefined : { req: conciseRequest, res: conciseResponse },
    },
    destination,
  );
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
