/**
 * Writes an async sequence as NDJSON (one JSON value per line) to an HTTP
 * response with backpressure: when `write` says the socket buffer is full,
 * wait for 'drain' before pulling the next value, so memory stays bounded by
 * what the source holds (a page), not by what the client has not read yet.
 * A client that goes away ends the loop; returning from the for-await closes
 * the source (its generator stops reading the database).
 *
 * A live stream (`keepAliveMs` set: the event and match streams) flushes its
 * headers at once, writes an empty line every `keepAliveMs` (as lichess does:
 * readers skip empty lines; none is written while the socket buffer is full),
 * and when the client goes away closes its source at once (`return()`), even
 * while the source waits for its next value.
 */
import { Logger } from '@nestjs/common';
import type { Response } from 'express';
import { toDomainError } from './error-mapping';

const logger = new Logger('NDJSON');

export interface NdjsonOptions {
  /** A live stream: an empty line this often (ms), headers flushed at once, the source closed when the client goes. */
  keepAliveMs?: number;
}

type Closable = { return?: (value?: unknown) => unknown };

export async function sendNdjson(res: Response, lines: AsyncIterable<unknown> | Iterable<unknown>, options: NdjsonOptions = {}): Promise<void> {
  const live = options.keepAliveMs !== undefined;
  let gone = false;
  let wake: (() => void) | null = null;
  const onClose = () => {
    if (!res.writableFinished) gone = true;
    wake?.();
    // A live source may wait long for its next value: close it now (it ends the for-await below).
    if (gone && live) void Promise.resolve((lines as Closable).return?.()).catch(() => undefined);
  };
  res.on('close', onClose);
  // Gone already (while the stream was being set up): its 'close' has passed.
  if (res.destroyed) onClose();
  res.status(200);
  res.setHeader('content-type', 'application/x-ndjson; charset=utf-8');
  res.setHeader('cache-control', 'no-store');
  let keepAlive: NodeJS.Timeout | null = null;
  if (live) {
    res.setHeader('x-accel-buffering', 'no'); // nginx: pass lines through as they come
    if (!gone) res.flushHeaders();
    keepAlive = setInterval(() => {
      if (!gone && !res.writableEnded && !res.writableNeedDrain) res.write('\n');
    }, options.keepAliveMs);
    keepAlive.unref();
  }
  try {
    for await (const value of lines) {
      if (gone) break;
      if (!res.write(JSON.stringify(value) + '\n')) {
        await new Promise<void>((resolve) => {
          const done = () => {
            res.off('drain', done);
            wake = null;
            resolve();
          };
          wake = done;
          res.on('drain', done);
        });
      }
      if (gone) break;
    }
  } catch (err) {
    // The status line is out: the failure becomes the last line (a problem code, never a 500 page).
    const known = toDomainError(err);
    if (!known) logger.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
    if (!gone) res.write(JSON.stringify({ error: { code: known?.code ?? 'UNAVAILABLE', message: known?.message ?? 'the stream failed' } }) + '\n');
  } finally {
    if (keepAlive) clearInterval(keepAlive);
    res.off('close', onClose);
    if (!gone) res.end();
  }
}
