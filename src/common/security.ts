/**
 * Browser-facing hardening: helmet's headers, and CORS open to any origin by
 * default (clients authenticate with bearer tokens, never cookies, so a
 * foreign page gains nothing); CORS_ORIGINS narrows it to a list.
 */
import type { INestApplication } from '@nestjs/common';
import helmet from 'helmet';
import type { AppConfig } from '../config/config';

export const EXPOSED_HEADERS = ['ETag', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After', 'X-Request-Id', 'Location'];

export function applySecurity(app: INestApplication, config: Pick<AppConfig, 'CORS_ORIGINS'>): void {
  app.use(
    helmet({
      contentSecurityPolicy: {
        useDefaults: true,
        // the web client and graphql-ws live on this origin; nothing else is loaded
        // no upgrade-insecure-requests: over plain http (a LAN host, npm start) it would break the client's assets
        directives: { 'connect-src': ["'self'", 'ws:', 'wss:'], 'img-src': ["'self'", 'data:'], 'upgrade-insecure-requests': null },
      },
      crossOriginEmbedderPolicy: false,
    }),
  );
  const origins = config.CORS_ORIGINS;
  app.enableCors({
    origin: origins?.length ? origins : '*',
    methods: ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
    allowedHeaders: ['Authorization', 'Content-Type', 'If-Match', 'Idempotency-Key', 'X-Request-Id'],
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: 600,
  });
}
