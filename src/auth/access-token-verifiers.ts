import { Injectable } from '@nestjs/common';
import type { Principal } from '../common/principal';

/** Checks a bearer token that is neither a session JWT nor a personal API token: null when it does not know it. */
export type AccessTokenVerifier = (token: string) => Promise<Principal | null>;

/**
 * Where other credentials plug into the one guard (and the graphql-ws
 * authentication) without auth importing them: the OAuth module registers
 * its access tokens here (the same pattern as MatchStore.onAppended).
 */
@Injectable()
export class AccessTokenVerifiers {
  private readonly verifiers = new Set<AccessTokenVerifier>();

  register(verifier: AccessTokenVerifier): () => void {
    this.verifiers.add(verifier);
    return () => this.verifiers.delete(verifier);
  }

  /** The principal of the first verifier that knows the token, or null. */
  async authenticate(token: string): Promise<Principal | null> {
    if (token.length > 512) return null;
    for (const verify of this.verifiers) {
      const principal = await verify(token);
      if (principal) return principal;
    }
    return null;
  }
}

/** A compact JWS (a session's JWT): three base64url parts. Anything else that is not an API token goes to the verifiers. */
export const looksLikeJwt = (token: string): boolean => /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(token);
