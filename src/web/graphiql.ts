import { existsSync } from 'node:fs';
import path from 'node:path';
import { Logger } from '@nestjs/common';
import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import express from 'express';
import type { NextFunction, Request, Response } from 'express';
import type { SitesConfig } from '../config/slices';

/** Where the built GraphiQL is: GRAPHIQL_DIR, else ./graphiql/dist (from the working directory). */
export function graphiqlDir(config: Pick<SitesConfig, 'GRAPHIQL_DIR'>): string {
  return path.resolve(process.cwd(), config.GRAPHIQL_DIR);
}

/**
 * Serves GraphiQL (graphiql/, built by `npm run build:graphiql` from npm
 * packages: no CDN) at /graphiql, for /graphql on the same origin. The page
 * and its assets are local files, so the CSP of every route (src/common/security.ts)
 * holds for it too.
 */
export function serveGraphiql(app: INestApplication, config: SitesConfig): void {
  const dir = graphiqlDir(config);
  const index = path.join(dir, 'index.html');
  if (!existsSync(index)) {
    if (config.NODE_ENV !== 'test') new Logger('GraphiQL').warn(`no GraphiQL in ${dir} (run npm run build:graphiql)`);
    return;
  }
  const assets = express.static(dir, {
    index: false,
    fallthrough: true,
    redirect: false,
    // Hashed asset names may be cached for good.
    setHeaders: (res) => res.setHeader('cache-control', 'public, max-age=31536000, immutable'),
  });
  const page = (_req: Request, res: Response) => {
    res.setHeader('cache-control', 'no-cache');
    res.sendFile(index);
  };
  (app as NestExpressApplication).use('/graphiql', (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (req.path === '/' || req.path === '') return page(req, res);
    return assets(req, res, next);
  });
}
