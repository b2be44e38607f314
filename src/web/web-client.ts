import { existsSync } from 'node:fs';
import path from 'node:path';
import { Logger } from '@nestjs/common';
import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import express from 'express';
import type { NextFunction, Request, Response } from 'express';
import type { SitesConfig } from '../config/slices';

const API_PATH = /^\/(v1|graphql|health|metrics)(\/|$)/;

/** Where the built web client is: WEB_DIR, else ./web/dist (from the working directory). */
export function webClientDir(config: Pick<SitesConfig, 'WEB_DIR'>): string {
  return path.resolve(process.cwd(), config.WEB_DIR);
}

/**
 * Serves the reference web client (web/, built by `npm run build:web`) at `/`.
 * Registered before Nest's routes, but it only answers for files that exist
 * (and `/` → index.html), so /v1, /graphql, /health and /metrics are untouched.
 * The client routes with the URL hash, so no fallback route is needed.
 */
export function serveWebClient(app: INestApplication, config: SitesConfig): void {
  const dir = webClientDir(config);
  if (!existsSync(path.join(dir, 'index.html'))) {
    if (config.NODE_ENV !== 'test') new Logger('WebClient').warn(`no web client in ${dir} (run npm run build:web)`);
    return;
  }
  const files = express.static(dir, {
    index: 'index.html',
    fallthrough: true,
    redirect: false,
    setHeaders: (res, file) => {
      // Hashed asset names may be cached for good; index.html must be revalidated.
      res.setHeader('cache-control', file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  // API calls never look at the disk (a stat per request is a large part of a small request's cost).
  (app as NestExpressApplication).use((req: Request, res: Response, next: NextFunction) =>
    (req.method !== 'GET' && req.method !== 'HEAD') || API_PATH.test(req.path) ? next() : files(req, res, next),
  );
}
