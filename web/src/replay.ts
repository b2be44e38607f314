import { scoredRounds } from '@scopa/sdk';
import type { Analysis, Audit, Match, MatchEvent, MatchView } from '@scopa/sdk';
import { client, currentSession } from './api';
import { analysisPanel } from './analysis';
import { h, mount } from './dom';
import { canVerify, checkFairness, commitmentOf } from './fairness';
import type { FairnessReport } from './fairness';
import { packOf } from './cards';
import { attempt } from './widgets';
import {
  breakdownTable,
  captureValuesOf,
  cardEl,
  cardRow,
  describeEvent,
  resultText,
  roundBonuses,
  seatHand,
  seatLabel,
  seatNameEl,
  sideLabel,
} from './match-widgets';

/** The seeds box: each seat's client seed, and once over what this browser re-derived from them. */
function seedsBox(final: Match, fair: FairnessReport | null, me: string | null): HTMLElement {
  const v = final.view;
  const seeds = v.clientSeeds ?? [];
  const ok = (good: boolean, text: string) => h('span', { class: good ? 'ok' : 'bad' }, `${good ? '✓' : '✗'} ${text}`);
  if (v.rulesVersion === 'scopa-rules/1') {
    return h(
      'div',
      { class: 'seeds', id: 'seeds' },
      h('h3', null, 'Seeds'),
      h('p', { class: 'muted' }, 'A scopa-rules/1 match: the deal follows from the server seed alone (no client seeds).'),
    );
  }
  return h(
    'div',
    { class: 'seeds', id: 'seeds' },
    h('h3', null, 'Seeds'),
    h(
      'ul',
      { id: 'client-seeds' },
      v.seats.map((s) =>
        h(
          'li',
          { 'data-seat': s.seat },
          `seat ${s.seat} (${seatLabel(s)}): `,
          seeds[s.seat] ? h('span', { class: 'mono small' }, seeds[s.seat]) : h('span', { class: 'muted' }, s.bot ? 'a bot gives no seed' : 'no seed given'),
        ),
      ),
    ),
    !final.reveal
      ? h('p', { class: 'muted' }, 'The server seed stays secret until the match is over; then this page re-derives every deal from it and these seeds.')
      : !fair
        ? h('p', { class: 'muted', id: 'deck-check' }, canVerify() ? 'checking the deals…' : 'not checked here (no WebCrypto)')
        : [
            h(
              'p',
              { id: 'commitment-first' },
              ok(
                fair.committedFirst && fair.commitmentOk,
                fair.committedFirst
                  ? 'The server committed to its seed (event #1) before any client seed was given: the deal was fixed on its side before anyone joined.'
                  : 'A client seed came before the commitment.',
              ),
            ),
            h(
              'p',
              { id: 'deck-check' },
              fair.badDeal
                ? ok(false, `The table of round ${fair.badDeal.round} (deal attempt ${fair.badDeal.attempt}) does not follow from the seeds.`)
                : ok(
                    true,
                    `Every deal (${fair.deals}) follows from the deck seed SHA-256("scopa-seed/2" ‖ server seed ‖ client seeds), re-shuffled in this browser.`,
                  ),
              h('div', { class: 'mono small muted' }, `deck seed ${fair.deckSeed}`),
            ),
            fair.mine
              ? h(
                  'p',
                  { id: 'your-seed' },
                  ok(
                    fair.mine.tableWithout.join(' ') !== fair.mine.table.join(' '),
                    `Your seed (seat ${fair.mine.seat}) changed the deal: without it the first table would have been ${fair.mine.tableWithout.join(' ')}, not ${fair.mine.table.join(' ')}.`,
                  ),
                )
              : me && v.seats.some((s) => s.player === me)
                ? h('p', { id: 'your-seed', class: 'muted' }, 'You gave no seed in this match.')
                : null,
            h(
              'p',
              { id: 'operator-proof' },
              fair.seeded.length > 0
                ? `Operator-proof: ${fair.seeded.length === 1 ? 'a human seat' : `${fair.seeded.length} human seats`} gave a seed after the server had committed, so the operator alone could not choose these cards.`
                : 'No human seat gave a seed: this deal is committed and verifiable, but the operator could have chosen it.',
            ),
          ],
  );
}

/** The whole event log of a match, 100 events a request. */
async function allEvents(id: string): Promise<MatchEvent[]> {
  const all: MatchEvent[] = [];
  for (;;) {
    const page = await client.events(id, all.length + 1, 100);
    all.push(...page);
    if (page.length < 100) return all;
  }
}

/**
 * The replay viewer: step or scrub through the event log of a match; once it
 * is over every seat's cards are revealed at every step, and the audit
 * verdict (hash chain, seed against its commitment, every command re-decided)
 * is shown beside it.
 */
export function replayScreen(root: HTMLElement, id: string): () => void {
  const me = currentSession()?.username ?? null;
  let final: Match | null = null;
  let events: MatchEvent[] = [];
  let audit: Audit | null = null;
  let localCheck: string | null = null;
  let fair: FairnessReport | null = null;
  let step = 1;
  const cache = new Map<number, Match>();
  let alive = true;
  // The post-game analysis (docs/analysis.md): null until asked for; polled while its job runs. Not read on
  // load: a match nobody asked about answers 404, which the browser logs as an error on every replay. Asking is
  // idempotent and answers a done analysis at once, so the button shows one that exists.
  let analysis: Analysis | null = null;

  const pollAnalysis = async () => {
    while (alive && analysis && (analysis.status === 'queued' || analysis.status === 'running')) {
      await new Promise((r) => setTimeout(r, 1000));
      const next = await attempt(() => client.analysis(id));
      if (!alive || !next) return;
      analysis = next;
      render();
    }
  };
  const askAnalysis = async () => {
    const asked = await attempt(() => client.requestAnalysis(id));
    if (!alive || !asked) return;
    analysis = asked;
    render();
    await pollAnalysis();
  };

  const fetchStep = async (n: number): Promise<Match | undefined> => {
    if (cache.has(n)) return cache.get(n);
    const m = await attempt(() => client.getMatch(id, n));
    if (m) cache.set(n, m);
    return m;
  };

  const goTo = async (n: number) => {
    if (!final) return;
    step = Math.max(1, Math.min(events.length, n));
    const want = step;
    render();
    await fetchStep(want);
    if (alive && want === step) render();
    // Prefetch the neighbours so that stepping feels instant.
    void fetchStep(Math.min(events.length, want + 1));
    void fetchStep(Math.max(1, want - 1));
  };

  const onKey = (ev: KeyboardEvent) => {
    if ((ev.target as HTMLElement | null)?.tagName === 'INPUT' && (ev.target as HTMLInputElement).type !== 'range') return;
    if (ev.key === 'ArrowRight') void goTo(step + 1);
    else if (ev.key === 'ArrowLeft') void goTo(step - 1);
    else if (ev.key === 'Home') void goTo(1);
    else if (ev.key === 'End') void goTo(events.length);
  };
  window.addEventListener('keydown', onKey);

  const render = () => {
    if (!alive) return;
    if (!final) return mount(root, h('section', { class: 'panel' }, h('p', { class: 'muted' }, 'Loading the replay…')));
    const n = events.length;
    const at = cache.get(step);
    const event = events[step - 1];
    const slider = h('input', { type: 'range', id: 'scrub', min: 1, max: n, value: step, 'aria-label': 'event' });
    slider.addEventListener('input', () => void goTo(Number(slider.value)));
    const v: MatchView | undefined = at?.view;
    const reveal = at?.reveal;
    const over = final.status === 'over';
    const commitment = final.view.seedCommitment;
    const pack = packOf(final.view.preset);
    const values = v ? captureValuesOf(v) : {};

    const auditBox = h(
      'div',
      { class: `audit ${audit ? (audit.sound ? 'sound' : 'unsound') : ''}`, id: 'audit' },
      h('h3', null, 'Audit'),
      audit
        ? [
            h(
              'p',
              { id: 'audit-verdict' },
              h('strong', null, audit.sound ? '✓ sound' : '✗ UNSOUND'),
              ` — checked ${audit.checked}${audit.events ? `, ${audit.events} events` : ''}`,
            ),
            !audit.sound ? h('p', null, `first bad event: #${audit.seq} — ${audit.reason}`) : null,
            audit.lastHash ? h('p', { class: 'mono small' }, `last hash ${audit.lastHash}`) : null,
          ]
        : h('p', { class: 'muted' }, 'checking…'),
      h('p', { class: 'mono small' }, `seed commitment ${commitment ?? '—'}`),
      final.reveal
        ? [
            h('p', { class: 'mono small' }, `revealed seed ${final.reveal.seed}`),
            h(
              'p',
              { id: 'seed-check' },
              localCheck === null
                ? 'sha256(seed) not checked here (no WebCrypto)'
                : localCheck === commitment
                  ? '✓ sha256(seed) equals the commitment (checked in this browser)'
                  : '✗ sha256(seed) does not equal the commitment',
            ),
          ]
        : h('p', { class: 'muted' }, 'The seed stays secret until the match is over: the audit checks the chain only.'),
      seedsBox(final, fair, me),
    );

    const seats = v
      ? v.seats.map((s) => {
          const hand = reveal?.hands[s.seat];
          return h(
            'div',
            { class: `seat ${v.turn === s.seat ? 'turn' : ''}`, 'data-seat': s.seat },
            h(
              'div',
              { class: 'seat-name' },
              seatNameEl(s),
              v.dealer === s.seat ? h('span', { class: 'badge' }, 'dealer') : null,
              h('span', { class: 'muted small' }, ` seat ${s.seat} · side ${s.side}`),
            ),
            hand
              ? h(
                  'div',
                  { class: 'cards revealed' },
                  hand.length
                    ? hand.map((c) => cardEl(c, { width: 52, pack, value: values[c], cls: s.declared?.includes(c) ? 'declared' : '' }))
                    : h('span', { class: 'muted' }, 'no cards'),
                )
              : seatHand(v, s, 34),
          );
        })
      : [];

    mount(
      root,
      h(
        'section',
        { class: 'replay' },
        h(
          'header',
          { class: 'match-head' },
          h('h1', null, `Replay: ${final.view.preset ?? 'match'} `, h('span', { class: 'muted small' }, id.slice(0, 8))),
          h('a', { href: `#/match/${id}` }, 'to the table'),
        ),
        over
          ? h('p', { class: 'result-line', id: 'replay-result' }, resultText(final.view, me))
          : h('p', { class: 'muted' }, 'This match is not over: each step shows the spectator view.'),
        h(
          'div',
          { class: 'controls' },
          h('button', { id: 'step-first', onclick: () => goTo(1), disabled: step <= 1, title: 'first (Home)' }, '|◀'),
          h('button', { id: 'step-back', onclick: () => goTo(step - 1), disabled: step <= 1, title: 'back (←)' }, '◀'),
          slider,
          h('button', { id: 'step-forward', onclick: () => goTo(step + 1), disabled: step >= n, title: 'forward (→)' }, '▶'),
          h('button', { id: 'step-last', onclick: () => goTo(n), disabled: step >= n, title: 'last (End)' }, '▶|'),
          h('span', { id: 'step-label' }, `event ${step} / ${n}`),
        ),
        h(
          'div',
          { class: 'current-event', id: 'current-event' },
          event
            ? [
                h('strong', null, `#${event.seq} ${event.type}`),
                ' — ',
                describeEvent(event, final.view),
                event.actor ? h('span', { class: 'muted' }, ` (by ${event.actor})`) : null,
              ]
            : null,
          event?.type === 'CardPlayed'
            ? h(
                'div',
                { class: 'played' },
                cardEl(String(event.payload.card), { width: 56, pack }),
                (event.payload.capture as string[]).length ? [' ⟶ ', cardRow(event.payload.capture as string[], 44, pack)] : null,
              )
            : null,
          event ? h('div', { class: 'mono small muted' }, `hash ${event.hash}`) : null,
        ),
        v
          ? h(
              'div',
              { class: 'replay-board' },
              h('div', { class: 'muted' }, `round ${v.round} · deck ${v.deckSize} · phase ${v.phase}`),
              h('div', { class: 'seats-grid' }, seats),
              h(
                'div',
                { class: 'felt', id: 'replay-table' },
                v.table.length ? v.table.map((c) => cardEl(c, { width: 60, pack, value: values[c] })) : h('span', { class: 'muted' }, 'The table is empty.'),
              ),
              h(
                'div',
                { class: 'sides' },
                v.sides.map((s) =>
                  h(
                    'div',
                    { class: 'side', 'data-side': s.side },
                    h('div', { class: 'side-name' }, sideLabel(v, s.side, me)),
                    h('div', { class: 'score' }, h('span', { class: 'big' }, String(s.score)), ' points'),
                    h('div', null, `captured ${s.capturedCount} · scope ${s.scope}`),
                    cardRow(s.captured, 24, pack),
                  ),
                ),
              ),
              event?.type === 'RoundScored' && scoredRounds(v).length
                ? [
                    breakdownTable(v, scoredRounds(v).length - 1, me),
                    roundBonuses(v, events.slice(0, step), scoredRounds(v)[scoredRounds(v).length - 1].round, me),
                  ]
                : null,
            )
          : h('p', { class: 'muted' }, 'Loading this step…'),
        over && v
          ? analysisPanel({
              analysis,
              onAsk: () => void askAnalysis(),
              events: n,
              sides: final.view.sides.length,
              currentSeq: event?.seq ?? 0,
              seatName: (seat) => {
                const s = final!.view.seats[seat];
                return s ? `${seatLabel(s)} (seat ${seat})` : `seat ${seat}`;
              },
              onMark: (d) => {
                const at = events.findIndex((e) => e.seq === d.seq);
                if (at >= 0) void goTo(at + 1);
              },
            })
          : null,
        auditBox,
      ),
    );
  };

  render();
  void (async () => {
    const [m, evs, a] = await Promise.all([attempt(() => client.getMatch(id)), attempt(() => allEvents(id)), attempt(() => client.audit(id))]);
    if (!alive || !m || !evs) return;
    final = m;
    events = evs;
    audit = a ?? null;
    if (m.reveal) {
      localCheck = await commitmentOf(m.reveal.seed);
      if (canVerify() && m.view.seedCommitment) {
        const mySeat = m.view.seats.find((s) => me !== null && s.player === me)?.seat ?? null;
        fair = await checkFairness(m.view.rulesVersion, m.view.seedCommitment, m.reveal.seed, m.view.clientSeeds ?? [], evs, mySeat);
      }
    }
    await goTo(1);
  })();

  return () => {
    alive = false;
    window.removeEventListener('keydown', onKey);
  };
}
