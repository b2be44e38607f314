/**
 * The largest response a read may get (RESPONSE_MAX_BYTES): a JSON response
 * over HTTP to a REST GET or a GraphQL document of queries larger than that
 * is not sent; the caller gets VALIDATION_FAILED (`reason:
 * "responseTooLarge"`, `responseBytes`, `maxResponseBytes`) instead: as
 * problem+json over REST, as a GraphQL error (400) at /graphql.
 * A backstop behind the cost of GraphQL documents (src/limits/request-cost.ts),
 * which refuses most oversized documents before they run. Streams (NDJSON,
 * Server-Sent Events) and exports are written in chunks and not bounded here.
 */
import type { NextFunction, Request, Response } from 'express';
import { DomainError } from './domain-error';
import { toGraphQLExtensions } from './error-mapping';
import { sendProblem } from './problem.filter';

const JSON_TYPE = /^application\/([a-z0-9.+-]*\+)?json\b/i;

/** The refusal of a response of `bytes` bytes. */
export function responseTooLarge(bytes: number, max: number): DomainError {
  return new DomainError(
    'VALIDATION_FAILED',
    `the response would be ${bytes} bytes, more than the ${max} one response may carry: ask for less (fewer fields or aliases, a smaller page)`,
    {
      reason: 'responseTooLarge',
      responseBytes: bytes,
      maxResponseBytes: max,
    },
  );
}

/** Express middleware: bounds every JSON body sent with res.send / res.json to `max` bytes. */
export function boundResponses(max: number) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const graphql = req.originalUrl.split('?')[0] === '/graphql';
    // Reads only: a REST GET, a GraphQL document of queries alone (the precheck tells, src/graphql/precheck.ts). A command's response is
    // sent whatever its size: it has acted, and its caller must learn the outcome (they are bounded by their inputs).
    if (graphql ? req.method !== 'GET' && req.method !== 'POST' : req.method !== 'GET' && req.method !== 'HEAD') return next();
    const send = res.send;
    res.send = function bounded(this: Response, body?: unknown) {
      // Characters are at most 3 bytes each in UTF-8 (a surrogate pair is 2 characters, 4 bytes): most bodies need no count.
      if (
        typeof body !== 'string' ||
        body.length * 3 <= max ||
        (graphql && res.locals.graphqlReadOnly !== true) ||
        !JSON_TYPE.test(String(res.getHeader('content-type') ?? ''))
      ) {
        return send.call(this, body);
      }
      const bytes = Buffer.byteLength(body);
      if (bytes <= max) return send.call(this, body);
      res.send = send;
      const error = responseTooLarge(bytes, max);
      if (graphql) {
        const { message, extensions } = toGraphQLExtensions(error);
        return res.status(400).send(JSON.stringify({ errors: [{ message, extensions }] }));
      }
      sendProblem(res, error);
      return res;
    } as Response['send'];
    next();
  };
}
