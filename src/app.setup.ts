import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { json, urlencoded } from 'express';
import type { NextFunction, Request, Response } from 'express';
import { trustProxy } from './common/client-address';
import { ProblemFilter, sendProblem } from './common/problem.filter';
import { applySecurity } from './common/security';
import { InputGuardPipe } from './common/input-guard.pipe';
import { validationPipe } from './common/validation';
import { serveGraphiql } from './web/graphiql';
import { serveWebClient } from './web/web-client';
import { serveDocs } from './docs/docs-site';
import { appConfig } from './config/config';

/** Paths whose request bodies their handler parses itself: the OAuth token, revocation and introspection endpoints. */
const OWN_BODY_PATHS = /^\/oauth\/(token|revoke|introspect|par)$/;

/**
 * Everything an application needs beyond its modules, shared by main.ts and
 * the e2e suites. Create the app with `{ bodyParser: false }`: the parsers
 * are installed here so that their errors (bad JSON, too large) are rendered
 * as problem documents too.
 */
export function configureApp(app: INestApplication): INestApplication {
  const express = app as NestExpressApplication;
  const config = appConfig();
  // req.ip: X-Forwarded-For only from the proxies TRUST_PROXY names (per-address rate limits)
  express.set('trust proxy', trustProxy(config.TRUST_PROXY));
  applySecurity(app, config);
  // The OAuth endpoints read their own bodies (oidc-provider, mounted by the oauth module): left unparsed here.
  // BODY_LIMIT: the largest accepted request body (REST and GraphQL alike); beyond it: 413 problem+json.
  const parsers = [json({ limit: config.BODY_LIMIT }), urlencoded({ extended: false, limit: config.BODY_LIMIT })];
  for (const parse of parsers) express.use((req: Request, res: Response, next: NextFunction) => (OWN_BODY_PATHS.test(req.path) ? next() : parse(req, res, next)));
  express.use((err: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (!err) return next();
    sendProblem(res, err);
  });
  express.disable('x-powered-by');
  serveDocs(app);
  serveWebClient(app);
  serveGraphiql(app);
  app.useGlobalFilters(new ProblemFilter());
  app.useGlobalPipes(new InputGuardPipe(), validationPipe());
  app.enableShutdownHooks();
  return app;
}
