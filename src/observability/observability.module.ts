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
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pinoHttp } from 'pino-http';
import { StoreModule } from '../match-store/store.module';
import { CommandMetricsService } from './command-metrics.service';
import { MetricsController } from './metrics.controller';
import { MetricsService } from './metrics.service';
import { requestId } from './request-id';
import type { AppConfig } from '../config/config';
import { ObservabilityConfig } from '../config/slices';

/** LOG_LEVEL, else silent under NODE_ENV=test, else info. */
export function logLevel(config: Pick<AppConfig, 'LOG_LEVEL' | 'NODE_ENV'>): string {
  return config.LOG_LEVEL ?? (config.NODE_ENV === 'test' ? 'silent' : 'info');
}

/** pino-http hands these its own serialized request and response (wrapSerializers). */
const conciseRequest = (req: { id?: unknown; method?: string; url?: string }) => ({ id: req.id, method: req.method, url: req.url });
const conciseResponse = (res: { statusCode?: number }) => ({ statusCode: res.statusCode });

/**
 * The service's request lines are at debug: one per request buried the lines a
 * newcomer needs at info. A server error (5xx) stays at error.
 */
export const REQUEST_LINE_LEVEL = 'debug';

/** The request log at `level`, to stdout or `destination`: one line per request at `lineLevel` (5xx at error), naming `instance` (INSTANCE_ID). */
export function requestLogger(level: string, destination?: NodeJS.WritableStream, lineLevel: 'info' | 'debug' = 'info', instance?: string) {
  const verbose = level === 'debug' || level === 'trace';
  const http = pinoHttp(
    {
      level,
      customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : lineLevel),
      genReqId: requestId,
      customProps: () => ({ instance }),
      // bodies can hold passwords and tokens: log neither
      redact: ['req.headers.authorization', 'req.headers.cookie'],
      // silent: not even the per-request line is built (it costs more than many a request)
      autoLogging: level !== 'silent' && { ignore: (req) => req.url === '/health' || req.url === '/metrics' },
      // One concise line per request; every header only at debug (they made 54 MB an hour of play).
      serializers: verbose ? undefined : { req: conciseRequest, res: conciseResponse },
    },
    destination,
  );
  if (http.logger.isLevelEnabled(lineLevel)) return http;
  // The request lines are below the level (the service's own at info, or silent): pino-http would still build two
  // child loggers per request for them (about 2% of a REST play's CPU). Only the id, and a server error's line.
  const errors = level === 'silent' ? null : http.logger.child({ instance });
  return (req: IncomingMessage & { id?: unknown }, res: ServerResponse, next: (err?: unknown) => void): void => {
    req.id ??= requestId(req, res);
    if (errors) {
      const started = Date.now();
      res.once('finish', () => {
        if (res.statusCode >= 500) errors.error({ req, res, responseTime: Date.now() - started }, 'request errored');
      });
    }
    next();
  };
}

@Global()
@Module({
  imports: [StoreModule],
  controllers: [MetricsController],
  providers: [MetricsService, CommandMetricsService],
  exports: [MetricsService, CommandMetricsService],
})
export class ObservabilityModule implements NestModule {
  constructor(private readonly config: ObservabilityConfig) {}

  configure(consumer: MiddlewareConsumer): void {
    consumer
      .apply(requestLogger(logLevel(this.config), undefined, REQUEST_LINE_LEVEL, this.config.INSTANCE_ID))
      .forRoutes({ path: '{/*splat}', method: RequestMethod.ALL });
  }
}
