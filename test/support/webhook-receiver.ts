/**
 * A local webhook receiver: every POST it gets, kept with its headers and raw
 * body, answered 200. A webhook's URL is `${url}/<label>` (the label tells
 * whose webhook it was). The service must be told WEBHOOK_ALLOW_PRIVATE=true
 * to send to 127.0.0.1.
 */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  /** The URL path after the first slash: the label. */
  label: string;
  event: string;
  deliveryId: string;
  signature: string;
  raw: string;
  // The payload as sent: {id, event, createdAt, data}.
  body: any;
  at: number;
}

export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private server: Server | null = null;
  private port = 0;

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        let body: unknown = null;
        try {
          body = JSON.parse(raw);
        } catch {
          body = null;
        }
        this.received.push({
          label: decodeURIComponent((req.url ?? '/').slice(1)),
          event: String(req.headers['scopa-event'] ?? ''),
          deliveryId: String(req.headers['scopa-delivery'] ?? ''),
          signature: String(req.headers['scopa-signature'] ?? ''),
          raw,
          body,
          at: Date.now(),
        });
        res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
    this.server = null;
  }
}
