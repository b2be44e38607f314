/**
 * The operator's way into a running service on the embedded database
 * (docs/operations.md "Moderators"): one process owns a PGlite folder
 * (src/database/data-dir-lock.ts), so while the service runs, `npm run admin`
 * cannot open the database and goes through the service instead.
 *
 * When the service listens, it writes `operator.json` into its data folder
 * (mode 0600, as the stored JWT secret beside it): its pid, the loopback URL
 * it listens on, and a random secret made at this start. The admin command
 * reads it (whoever can read the data folder is the operator) and calls
 * `POST /v1/operator/roles` with the secret in `X-Scopa-Operator`. The
 * endpoint takes only that secret (no account, no token), only from this
 * machine (a loopback peer, or a peer at the address it was reached on),
 * and is not in the public API. The file is removed at shutdown; a new start
 * makes a new secret. On PostgreSQL (or in memory) there is no such file:
 * the admin command opens PostgreSQL itself.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { renameSync, rmSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Injectable, Logger } from '@nestjs/common';
import type { OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { DomainError } from '../common/domain-error';
import { PrismaService } from '../database/prisma.service';
import type { Role } from './moderation-store';
import { ModerationService, operatorActor } from './moderation.service';

export const OPERATOR_FILE = 'operator.json';
export const OPERATOR_HEADER = 'x-scopa-operator';

/** What operator.json holds. */
export interface OperatorEndpoint {
  pid: number;
  url: string;
  secret: string;
}

/** Reads a data folder's operator.json, or null when there is none (or it is not one). */
export function readOperatorEndpoint(dataDir: string): OperatorEndpoint | null {
  try {
    const e = JSON.parse(readFileSync(path.join(dataDir, OPERATOR_FILE), 'utf8')) as Partial<OperatorEndpoint>;
    return typeof e.url === 'string' && typeof e.secret === 'string' && typeof e.pid === 'number' ? (e as OperatorEndpoint) : null;
  } catch {
    return null;
  }
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

@Injectable()
export class OperatorService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log = new Logger('Moderation');
  private readonly secret = randomBytes(32).toString('base64url');
  private file: string | null = null;

  constructor(
    private readonly moderation: ModerationService,
    private readonly prisma: PrismaService,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  onApplicationBootstrap(): void {
    const dataDir = this.prisma.database?.dataDir;
    // Only an HTTP server on a PGlite folder this process owns publishes the endpoint (not the worker, not pg, not memory).
    const server = this.adapterHost?.httpAdapter?.getHttpServer?.() as
      { listening?: boolean; address(): AddressInfo | string | null; once(e: 'listening', f: () => void): void } | undefined;
    if (!dataDir || !server || typeof server.once !== 'function') return;
    const publish = () => this.publish(dataDir, server.address());
    if (server.listening) publish();
    else server.once('listening', publish);
  }

  onApplicationShutdown(): void {
    if (!this.file) return;
    const mine = (() => {
      try {
        return (JSON.parse(readFileSync(this.file, 'utf8')) as Partial<OperatorEndpoint>).secret === this.secret;
      } catch {
        return false;
      }
    })();
    if (mine) rmSync(this.file, { force: true });
    this.file = null;
  }

  private publish(dataDir: string, address: AddressInfo | string | null): void {
    if (!address || typeof address === 'string') return;
    const host = address.address === '::' || address.address === '0.0.0.0' ? '127.0.0.1' : address.address;
    const url = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
    const file = path.join(dataDir, OPERATOR_FILE);
    const tmp = `${file}.${process.pid}.tmp`;
    try {
      writeFileSync(tmp, JSON.stringify({ pid: process.pid, url, secret: this.secret } satisfies OperatorEndpoint) + '\n', { mode: 0o600 });
      renameSync(tmp, file);
      this.file = file;
    } catch (err) {
      this.log.warn(`cannot write ${file} (npm run admin cannot reach this service): ${(err as Error).message}`);
    }
  }

  /** FORBIDDEN unless the request carries this start's secret from this machine. */
  authorize(given: unknown, peer: { remoteAddress?: string; localAddress?: string }): void {
    const expected = Buffer.from(this.secret);
    const actual = Buffer.from(typeof given === 'string' ? given : '');
    const sameMachine = !!peer.remoteAddress && (LOOPBACK.test(peer.remoteAddress) || peer.remoteAddress === peer.localAddress);
    if (!this.file || !sameMachine || actual.length !== expected.length || !timingSafeEqual(actual, expected)) {
      throw new DomainError('FORBIDDEN', 'the operator endpoint takes the secret of the data folder, from this machine');
    }
  }

  /** A role granted or revoked by the operator who ran `npm run admin` (`who`: their login name). */
  setRole(who: string, op: 'grant' | 'revoke', role: Role, username: string, reason: string | null): Promise<{ username: string; changed: boolean }> {
    return this.moderation.setRole(operatorActor(who), op, role, username, reason);
  }
}
