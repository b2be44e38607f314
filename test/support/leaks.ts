import type { INestApplication } from '@nestjs/common';
import { cardCodes, seatOf, toHex } from '../../src/engine';
import type { MatchState } from '../../src/engine';
import { MatchStore } from '../../src/match-store/match-store';

const CARD = /(?<![A-Za-z0-9])(10|[1-9])[DCSB](?![A-Za-z0-9])/g;

export interface Leak {
  who: string;
  label: string;
  found: string[];
}

/**
 * Checks payloads against the server's own state: before the end, a payload
 * received by `who` may name no card of another seat's hand, no undealt card,
 * and not the seed.
 */
export class LeakScanner {
  readonly leaks: Leak[] = [];
  scanned = 0;
  private readonly store: MatchStore;

  constructor(app: INestApplication) {
    this.store = app.get(MatchStore);
  }

  async scan(who: string, matchId: string, label: string, body: string, atSeq?: number): Promise<void> {
    const state: MatchState = await this.store.state(matchId, atSeq);
    if (state.phase === 'over') return;
    this.scanned++;
    const mine = seatOf(state, who);
    const secret = new Set<string>();
    state.hands.forEach((hand, seat) => {
      if (seat !== mine) for (const c of cardCodes(hand)) secret.add(c);
    });
    if (state.deck) for (const c of cardCodes(Array.from(state.deck.subarray(state.deckPos)))) secret.add(c);
    const found = (body.match(CARD) ?? []).filter((c) => secret.has(c));
    if (state.seed && body.includes(toHex(state.seed))) found.push('<seed>');
    if (state.deckSeed && body.includes(toHex(state.deckSeed))) found.push('<deck seed>');
    if (/"seed"\s*:\s*"[0-9a-f]{64}"/.test(body)) found.push('<seed field>');
    if (found.length) this.leaks.push({ who, label, found: [...new Set(found)] });
  }
}
