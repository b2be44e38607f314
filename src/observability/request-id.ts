/**
 * Every request gets an id: the client's X-Request-Id when it is a sane
 * token, else a fresh UUID. It is echoed in the response and in every log line
 * of the request.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

const SANE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestId(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && SANE_ID.test(given) ? given : randomUUID();
  res.setHeader('X-Request-Id', id);
  return id;
}
