import { Injectable } from '@nestjs/common';
import type { KeyObject } from 'node:crypto';
import { AuthConfig } from '../config/slices';
import { jwtSecret, jwtVerifyKey } from './auth.config';

/**
 * The server secret of this application (./auth.config.ts jwtSecret): what
 * signs and verifies sessions' JWTs, and what the OAuth keys derive from.
 * Read once, when the application is built.
 */
@Injectable()
export class ServerSecret {
  readonly value: string;
  /** For verifying (see jwtVerifyKey). */
  readonly verifyKey: KeyObject;

  constructor(config: AuthConfig) {
    this.value = jwtSecret(config);
    this.verifyKey = jwtVerifyKey(this.value);
  }
}
