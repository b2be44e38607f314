/**
 * Structured JSON logs (pino, one line per request with its id) and
 * Prometheus metrics at GET /metrics.
 */
import { Global, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { MetricsController } from './metrics.controller';
import { MetricsService } from './metrics.service';
import { requestId } from './request-id';

const LEVEL = process.env.LOG_LEVEL ?? (process.env.NODE_ENV === 'test' ? 'silent' : 'info');

@Global()
@Module({
  imports: [
    LoggerModule.forRoot({
      pinoHttp: {
        level: LEVEL,
        genReqId: requestId,
        customProps: () => ({ instance: process.env.INSTANCE_ID ?? 'local' }),
        // bodies can hold passwords and tokens: log neither
        redact: ['req.headers.authorization', 'req.headers.cookie'],
        // silent: not even the per-request line is built (it costs more than many a request)
        autoLogging: LEVEL !== 'silent' && { ignore: (req) => req.url === '/health' || req.url === '/metrics' },
      },
    }),
  ],
  controllers: [MetricsController],
  providers: [MetricsService],
  exports: [MetricsService],
})
export class ObservabilityModule {}
