/**
 * A compact, human-readable notation for a whole match, like PGN for chess.
 * See docs/rules.md, "Match notation". Produced from the log of a finished match and
 * parsed back (and re-decided through the engine) by the audit tool.
 *
 *   [Preset "scopa"]
 *   [Options "{...}"]            resolved options, canonical JSON
 *   [Seats "["alice","bob"]"]    player id per seat, JSON
 *   [ClientSeeds "["ab01",null]"] client seed per seat, JSON (scopa-rules/2 on)
 *   ...
 *
 *   1. {dealer 1; table 3C 5S 9B 1D} 7D 5D*5S 3D*3C+1D# ... {totals 3-1}
 *   2. ...
 *
 * A play is the card, then `*` and the captured cards joined by `+`, then `#`
 * for a scopa; `~` before it marks a play made by the clock (autoPlay).
 * A hand declaration (cirulla, `scopa-rules/4`) is `!` and the declared
 * cards joined by `+` (the matta followed by `=` and the value named), then
 * `/` and the scope it scores: `!7C=2+2D+2S/10`. The initial-table capture
 * is `init(s)` for the dealer's side s, `*` and the cards, `/` and its
 * scope: `init(1)*5D+10S/1`, right after the round's number.
 * `resign(n)` and `forfeit(n)` end the match for seat n, `abort(n)` calls it
 * off before the first play (`scopa-rules/3`; a match aborted before its
 * start has the header `[Started "no"]`). `N.` starts round N.
 * Text in braces is a comment.
 */
import { decide, evolve, initialState, isSeedHex, seedCommitment, seedFromHex, takesClientSeeds } from '../engine';
import type { Command, MatchEvent, MatchState, SeatSpec } from '../engine';
import { canonicalJson } from './chain';
import type { ExportHeader } from './export';

type Ended = Extract<MatchEvent, { type: 'MatchEnded' }>;
type Declared = Extract<MatchEvent, { type: 'HandDeclared' }>;
type InitialCapture = Extract<MatchEvent, { type: 'InitialTableCaptured' }>;

/** `!7C=2+2D+2S/10`: the declared cards (the matta with the value named), the scope. */
function declarationText(e: Declared, matta: string | null): string {
  return `!${e.cards.map((c) => (c === matta && e.mattaValue !== null ? `${c}=${e.mattaValue}` : c)).join('+')}/${e.scope}`;
}

/** `init(1)*5D+10S/1`: the dealer's side takes the initial table. */
function initialCaptureText(e: InitialCapture): string {
  return `init(${e.side})*${e.cards.join('+')}/${e.scope}`;
}

export function resultText(result: { reason: string; winner: number | null; totals: number[] } | null): string {
  if (!result) return '*';
  return `${result.winner === null ? 'draw' : result.winner} (${result.reason}) ${result.totals.join('-')}`;
}

/** Client seed per seat as the log gives them (with a join or on their own). */
function clientSeedsOf(seats: number, events: readonly MatchEvent[]): (string | null)[] {
  const seeds = new Array<string | null>(seats).fill(null);
  for (const e of events) {
    if (e.type === 'ClientSeedGiven' || (e.type === 'SeatTaken' && e.clientSeed !== undefined)) seeds[e.seat] = e.clientSeed!;
  }
  return seeds;
}

export function toNotation(header: ExportHeader, events: readonly MatchEvent[]): string {
  const out: string[] = [
    `[Event "Scopa match"]`,
    `[MatchId "${header.matchId}"]`,
    `[Preset "${header.preset}"]`,
    `[Options "${canonicalJson(header.options)}"]`,
    `[RulesVersion "${header.rulesVersion}"]`,
    `[Seats "${JSON.stringify(header.seats.map((s) => s.player))}"]`,
    ...(takesClientSeeds(header.rulesVersion) ? [`[ClientSeeds "${JSON.stringify(clientSeedsOf(header.seats.length, events))}"]`] : []),
    `[CreatedBy "${header.createdBy}"]`,
    `[Settings "${canonicalJson(header.settings)}"]`,
    `[Commitment "${header.seedCommitment}"]`,
    `[Seed "${header.seed}"]`,
    `[Result "${resultText(header.result)}"]`,
    ...(events.some((e) => e.type === 'MatchStarted') ? [] : [`[Started "no"]`]),
    '',
  ];
  let line: string[] = [];
  let dealt: Extract<MatchEvent, { type: 'RoundDealt' }> | null = null;
  let initial: InitialCapture | null = null;
  const matta = typeof (header.options as { matta?: unknown }).matta === 'string' ? (header.options as { matta: string }).matta : null;
  const flush = () => {
    if (line.length) out.push(line.join(' '));
    line = [];
  };
  const roundStart = () => {
    if (!dealt) return;
    flush();
    line.push(`${dealt.round}.`, `{dealer ${dealt.dealer}; table ${dealt.table.join(' ') || '-'}}`);
    if (initial) line.push(initialCaptureText(initial));
    dealt = null;
    initial = null;
  };
  for (const e of events) {
    switch (e.type) {
      case 'RoundDealt':
        dealt = e;
        initial = null;
        break;
      case 'InitialTableCaptured':
        initial = e;
        break;
      case 'HandDeclared':
        roundStart();
        line.push(declarationText(e, matta));
        break;
      case 'CardPlayed': {
        roundStart();
        line.push(`${e.auto ? '~' : ''}${e.card}${e.capture.length ? '*' + e.capture.join('+') : ''}${e.scopa ? '#' : ''}`);
        break;
      }
      case 'SeatResigned':
        if (initial) roundStart(); // a marked initial capture needs its round
        line.push(`resign(${e.seat})`);
        break;
      case 'SeatForfeited':
        if (initial) roundStart();
        line.push(`forfeit(${e.seat})`);
        break;
      case 'MatchAborted':
        if (initial) roundStart();
        flush();
        line.push(`abort(${e.seat})`);
        break;
      case 'RoundScored':
        line.push(`{totals ${e.totals.join('-')}}`);
        break;
      case 'MatchEnded':
        line.push(`{${resultText({ reason: e.reason, winner: e.winner, totals: e.totals })}}`);
        break;
      default:
        break;
    }
  }
  flush();
  return out.join('\n') + '\n';
}

export type NotationToken =
  | { kind: 'round'; round: number; text: string }
  | { kind: 'play'; card: string; capture: string[]; scopa: boolean; auto: boolean; text: string }
  | { kind: 'declare'; cards: string[]; mattaValue: number | null; scope: number; text: string }
  | { kind: 'init'; side: number; cards: string[]; scope: number; text: string }
  | { kind: 'resign' | 'forfeit' | 'abort'; seat: number; text: string };

export interface ParsedNotation {
  headers: Record<string, string>;
  tokens: NotationToken[];
}

const CARD = '(?:10|[1-9])[DCSB]';
const PLAY = new RegExp(`^(~?)(${CARD})(?:\\*(${CARD}(?:\\+${CARD})*))?(#?)$`);
const DECLARED_CARD = `${CARD}(?:=(?:10|[1-9]))?`;
const DECLARATION = new RegExp(`^!(${DECLARED_CARD}(?:\\+${DECLARED_CARD})*)/(\\d+)$`);
const INITIAL = new RegExp(`^init\\((\\d+)\\)\\*(${CARD}(?:\\+${CARD})*)/(\\d+)$`);

function declarationToken(m: RegExpExecArray, text: string): NotationToken {
  let mattaValue: number | null = null;
  const cards = m[1].split('+').map((c) => {
    const [card, value] = c.split('=');
    if (value !== undefined) {
      if (mattaValue !== null) throw new Error(`two matta values in ${JSON.stringify(text)}`);
      mattaValue = Number(value);
    }
    return card;
  });
  return { kind: 'declare', cards, mattaValue, scope: Number(m[2]), text };
}

export function parseNotation(text: string): ParsedNotation {
  const headers: Record<string, string> = {};
  const body: string[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const h = /^\[([A-Za-z][A-Za-z0-9]*) "(.*)"\]$/.exec(line);
    if (h) headers[h[1]] = h[2];
    else if (line.startsWith('[')) throw new Error(`bad header line: ${line}`);
    else body.push(line);
  }
  const stripped = body.join('\n').replace(/\{[^}]*\}/g, ' ');
  if (/[{}]/.test(stripped)) throw new Error('unbalanced comment braces');
  const tokens: NotationToken[] = [];
  for (const text of stripped.split(/\s+/).filter(Boolean)) {
    let m: RegExpExecArray | null;
    if ((m = /^(\d+)\.$/.exec(text))) tokens.push({ kind: 'round', round: Number(m[1]), text });
    else if ((m = /^(resign|forfeit|abort)\((\d+)\)$/.exec(text))) tokens.push({ kind: m[1] as 'resign' | 'forfeit' | 'abort', seat: Number(m[2]), text });
    else if ((m = DECLARATION.exec(text))) tokens.push(declarationToken(m, text));
    else if ((m = INITIAL.exec(text))) tokens.push({ kind: 'init', side: Number(m[1]), cards: m[2].split('+'), scope: Number(m[3]), text });
    else if ((m = PLAY.exec(text)))
      tokens.push({ kind: 'play', auto: m[1] === '~', card: m[2], capture: m[3] ? m[3].split('+') : [], scopa: m[4] === '#', text });
    else throw new Error(`bad token ${JSON.stringify(text)}`);
  }
  return { headers, tokens };
}

export type NotationAudit = { sound: true; plies: number; result: string } | { sound: false; ply: number | null; token: string | null; reason: string };

/** Re-plays a notation through the engine from its seed: every play legal, every mark right, the result as stated. */
export function auditNotation(text: string): NotationAudit {
  let parsed: ParsedNotation;
  try {
    parsed = parseNotation(text);
  } catch (err) {
    return { sound: false, ply: null, token: null, reason: (err as Error).message };
  }
  const { headers, tokens } = parsed;
  const fail = (reason: string, ply: number | null = null, token: string | null = null): NotationAudit => ({ sound: false, ply, token, reason });
  for (const k of ['Preset', 'Options', 'Seats', 'CreatedBy', 'Settings', 'Commitment', 'Seed', 'Result'])
    if (!(k in headers)) return fail(`missing header ${k}`);
  if (!isSeedHex(headers.Seed)) return fail('the Seed header is not 64 hex characters');
  const seed = seedFromHex(headers.Seed);
  if (seedCommitment(seed) !== headers.Commitment) return fail('the seed does not match the commitment (sha256)');
  let options: Record<string, unknown>;
  let players: (string | null)[];
  let settings: Record<string, unknown>;
  let clientSeeds: unknown[];
  try {
    options = JSON.parse(headers.Options);
    players = JSON.parse(headers.Seats);
    settings = JSON.parse(headers.Settings);
    clientSeeds = headers.ClientSeeds === undefined ? [] : JSON.parse(headers.ClientSeeds);
  } catch {
    return fail('Options, Seats, Settings and ClientSeeds are JSON');
  }
  if (!Array.isArray(clientSeeds)) return fail('ClientSeeds is a list');
  let state: MatchState = initialState(seed);
  // The initial-table captures the engine made and the notation has not marked yet: each must be marked, in order.
  const unmarked: InitialCapture[] = [];
  const run = (command: Command): MatchEvent[] | string => {
    const d = decide(command, state);
    if (!d.ok) return `${d.rejection.code}: ${d.rejection.message}`;
    for (const e of d.events) {
      state = evolve(state, e);
      if (e.type === 'InitialTableCaptured') unmarked.push(e);
    }
    return d.events;
  };
  const sameCards = (a: readonly string[], b: readonly string[]): boolean => canonicalJson([...a].sort()) === canonicalJson([...b].sort());
  const seats: SeatSpec[] = players.map((p) => {
    const bot = p ? /^bot:([a-z]+):\d+$/.exec(p) : null;
    return bot ? { bot: bot[1] as SeatSpec['bot'] } : p ? { player: p } : {};
  });
  const created = run({
    type: 'create',
    preset: headers.Preset,
    overrides: options,
    seats,
    createdBy: headers.CreatedBy,
    seedCommitment: headers.Commitment,
    settings,
    ...(headers.RulesVersion ? { rulesVersion: headers.RulesVersion } : {}),
  });
  if (typeof created === 'string') return fail(`the headers do not make a match: ${created}`);
  for (const [seat, clientSeed] of clientSeeds.entries()) {
    if (clientSeed === null) continue;
    const given = run({ type: 'setClientSeed', player: state.seats[seat]?.player ?? '', clientSeed: clientSeed as string });
    if (typeof given === 'string') return fail(`the client seed of seat ${seat} does not apply: ${given}`);
  }
  if (headers.Started !== 'no') {
    const started = run({ type: 'start', player: headers.CreatedBy });
    if (typeof started === 'string') return fail(`the match cannot start: ${started}`);
  }
  let ended: Ended | null = null;
  let ply = 0;
  for (const t of tokens) {
    if (ended) return fail('moves after the end of the match', ply + 1, t.text);
    if (t.kind === 'round') {
      if (t.round !== state.round) return fail(`round ${t.round} marked during round ${state.round}`, ply + 1, t.text);
      continue;
    }
    if (t.kind === 'init') {
      const made = unmarked.shift();
      if (!made) return fail('no initial-table capture happened here', ply + 1, t.text);
      if (made.side !== t.side || made.scope !== t.scope || !sameCards(made.cards, t.cards)) {
        return fail(`the initial-table capture is ${initialCaptureText(made)}`, ply + 1, t.text);
      }
      continue;
    }
    if (unmarked.length > 0) return fail(`the initial-table capture ${initialCaptureText(unmarked[0])} is not marked`, ply + 1, t.text);
    ply++;
    let events: MatchEvent[] | string;
    if (t.kind === 'play') {
      const seat = state.turn;
      events = t.auto ? run({ type: 'clockExpired', seat }) : run({ type: 'play', player: state.seats[seat]?.player ?? '', card: t.card, capture: t.capture });
      if (typeof events === 'string') return fail(events, ply, t.text);
      const played = events[0];
      if (played.type !== 'CardPlayed' || played.card !== t.card || canonicalJson([...played.capture].sort()) !== canonicalJson([...t.capture].sort())) {
        return fail('the clock would have played otherwise', ply, t.text);
      }
      if (played.scopa !== t.scopa) return fail(played.scopa ? 'a scopa is not marked' : 'marked as a scopa but is not one', ply, t.text);
    } else if (t.kind === 'declare') {
      const seat = state.turn;
      events = run({ type: 'declareHand', player: state.seats[seat]?.player ?? '', mattaValue: t.mattaValue });
      if (typeof events === 'string') return fail(events, ply, t.text);
      const declared = events[0];
      if (declared.type !== 'HandDeclared' || !sameCards(declared.cards, t.cards)) return fail('the declared cards are not the hand', ply, t.text);
      if (declared.scope !== t.scope) return fail(`the declaration scores ${declared.scope}, not ${t.scope}`, ply, t.text);
    } else if (t.kind === 'resign') {
      events = run({ type: 'resign', player: state.seats[t.seat]?.player ?? '' });
      if (typeof events === 'string') return fail(events, ply, t.text);
    } else if (t.kind === 'abort') {
      events = run({ type: 'abort', player: state.seats[t.seat]?.player ?? '' });
      if (typeof events === 'string') return fail(events, ply, t.text);
    } else {
      events = run({ type: 'clockExpired', seat: t.seat });
      if (typeof events === 'string') return fail(events, ply, t.text);
      if (events[0].type !== 'SeatForfeited') return fail('the settings do not forfeit on expiry', ply, t.text);
    }
    const last = events[events.length - 1];
    if (last.type === 'MatchEnded') ended = last;
  }
  if (unmarked.length > 0) return fail(`the initial-table capture ${initialCaptureText(unmarked[0])} is not marked`);
  if (!ended) return fail('the moves do not finish the match');
  const result = resultText({ reason: ended.reason, winner: ended.winner, totals: ended.totals });
  if (result !== headers.Result) return fail(`the moves give the result "${result}", not "${headers.Result}"`);
  return { sound: true, plies: ply, result };
}
