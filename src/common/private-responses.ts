/**
 * The API's answers depend on who asks (a match view holds the caller's own
 * hand), and a match's answer carries its seq as its ETag, the same for every
 * caller. A browser keeps answers by address: without this, one account's
 * cached view was revalidated (If-None-Match, 304) and shown to the next
 * account signed in on the same browser. So every answer of /v1 and /graphql
 * is private to its caller (no shared cache keeps it), to be revalidated, and
 * varies by Authorization (a browser's cache keeps one per credential). A
 * handler that sets its own Cache-Control (the export keys, public) keeps it.
 */
import type { NextFunction, Request, Response } from 'express';

const API_PATHS = /^\/(v1|graphql)(\/|$)/;

export function privateResponses() {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (API_PATHS.test(req.path)) {
      res.setHeader('Cache-Control', 'private, no-cache');
      res.vary('Authorization');
    }
    next();
  };
}
