import { existsSync } from 'node:fs';
import path from 'node:path';
import { Logger } from '@nestjs/common';
import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import express from 'express';
import type { NextFunction, Request, Response } from 'express';
import type { SitesConfig } from '../config/slices';

/** Where `npm run docs` writes the API reference: DOCS_DIR, else ./docs-site (from the working directory). */
export function docsDir(config: Pick<SitesConfig, 'DOCS_DIR'>): string {
  return path.resolve(process.cwd(), config.DOCS_DIR);
}

/**
 * Serves the API reference built by `npm run docs` (scripts/build-docs.mjs:
 * Redoc for REST, TypeDoc for the SDK) at /docs. The pages carry no inline
 * script (the build moves them to files), so the service's strict CSP applies
 * unchanged. Without a build, /docs answers a 404 problem saying how to make one.
 */
export function serveDocs(app: INestApplication, config: SitesConfig): void {
  const dir = docsDir(config);
  const built = existsSync(path.join(dir, 'index.html'));
  const nodeEnv = config.NODE_ENV;
  if (!built && nodeEnv !== 'test' && nodeEnv !== 'production') {
    new Logger('Docs').warn(`no API reference in ${dir} (run npm run docs)`);
  }
  const files = express.static(dir, {
    index: 'index.html',
    redirect: true, // /docs -> /docs/ so that the pages' relative links work
    fallthrough: true,
    setHeaders: (res) => res.setHeader('cache-control', 'no-cache'),
  });
  (app as NestExpressApplication).use('/docs', (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (!built) {
      res.status(404).type('application/problem+json').send({
        type: 'about:blank',
        title: 'Not Found',
        status: 404,
        code: 'NOT_FOUND',
        detail: 'The API reference is not built on this instance: run npm run docs',
      });
      return;
    }
    files(req, res, next);
  });
}
