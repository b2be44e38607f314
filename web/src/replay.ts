import { scoredRounds } from '@scopa/sdk';
import type { Analysis, Audit, Match, MatchEvent, MatchView } from '@scopa/sdk';
import { client, currentSession } from './api';
import { analysisPanel } from './analysis';
import { h, mount } from './dom';
import { canVerify, checkFairness, commitmentOf } from './fairness';
import type { FairnessReport } from './fairness';
import { cardNames, packOf } from './cards';
import { formatNumber, t } from './i18n';
import { gameName } from './game-choice';
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
  scopeText,
} from './match-widgets';

/** The seeds box: each seat's client seed, and once over what this browser re-derived from them. */
function seedsBox(final: Match, fair: FairnessReport | null, me: string | null): HTMLElement {
  const v = final.view;
  const seeds = v.clientSeeds ?? [];
  const pack = packOf(v.preset);
  const ok = (good: boolean, text: string) => h('span', { class: good ? 'ok' : 'bad' }, `${good ? '✓' : '✗'} ${text}`);
  if (v.rulesVersion === 'scopa-rules/1') {
    return h('div', { class: 'seeds', id: 'seeds' }, h('h3', null, t('fairness:title')), h('p', { class: 'muted' }, t('fairness:rules1')));
  }
  return h(
    'div',
    { class: 'seeds', id: 'seeds' },
    h('h3', null, t('fairness:title')),
    h(
      'ul',
      { id: 'client-seeds' },
      v.seats.map((s) =>
        h(
          'li',
          { 'data-seat': s.seat },
          t('fairness:seatSeed', { seat: formatNumber(s.seat), player: seatLabel(s) }),
          ' ',
          seeds[s.seat]
            ? h('span', { class: 'mono small' }, seeds[s.seat])
            : h('span', { class: 'muted' }, s.bot ? t('fairness:botNoSeed') : t('fairness:noSeed')),
        ),
      ),
    ),
    !final.reveal
      ? h('p', { class: 'muted' }, t('fairness:secret'))
      : !fair
        ? h('p', { class: 'muted', id: 'deck-check' }, canVerify() ? t('fairness:checking') : t('fairness:noCrypto'))
        : [
            h(
              'p',
              { id: 'commitment-first' },
              ok(fair.committedFirst && fair.commitmentOk, fair.committedFirst ? t('fairness:committedFirst') : t('fairness:seedBeforeCommitment')),
            ),
            h(
              'p',
              { id: 'deck-check' },
              fair.badDeal
                ? ok(false, t('fairness:badDeal', { round: formatNumber(fair.badDeal.round), attempt: formatNumber(fair.badDeal.attempt) }))
                : ok(true, t('fairness:dealsFollow', { count: fair.deals, n: formatNumber(fair.deals) })),
              h('div', { class: 'mono small muted' }, t('fairness:deckSeed', { seed: fair.deckSeed })),
            ),
            fair.mine
              ? h(
                  'p',
                  { id: 'your-seed' },
                  ok(
                    fair.mine.tableWithout.join(' ') !== fair.mine.table.join(' '),
                    t('fairness:yourSeed', {
                      seat: formatNumber(fair.mine.seat),
                      without: cardNames(fair.mine.tableWithout, pack),
                      table: cardNames(fair.mine.table, pack),
                    }),
                  ),
                )
              : me && v.seats.some((s) => s.player === me)
                ? h('p', { id: 'your-seed', class: 'muted' }, t('fairness:youGaveNone'))
                : null,
            h(
              'p',
              { id: 'operator-proof' },
              fair.seeded.length > 0
                ? t('fairness:operatorProof', { count: fair.seeded.length, n: formatNumber(fair.seeded.length) })
                : t('fairness:operatorCould'),
            ),
          ],
  );
}

/** The first step worth opening on: the first deal (the first event that puts cards on the table), else the last event. */
export function firstShowingStep(events: readonly MatchEvent[]): number {
  const at = events.findIndex((e) => e.type === 'RoundDealt');
  return at >= 0 ? at + 1 : Math.max(1, events.length);
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

  /** The move a seq is: the plays and declarations up to it, counted from 1. */
  const moveOf = (seq: number) => events.filter((e) => e.seq <= seq && (e.type === 'CardPlayed' || e.type === 'HandDeclared')).length + 1;

  const render = () => {
    if (!alive) return;
    if (!final) return mount(root, h('section', { class: 'panel' }, h('p', { class: 'muted' }, t('replay:loading'))));
    const n = events.length;
    const at = cache.get(step);
    const event = events[step - 1];
    const slider = h('input', { type: 'range', id: 'scrub', min: 1, max: n, value: step, 'aria-label': t('replay:scrub') });
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
      h('h3', null, t('replay:audit.title')),
      audit
        ? [
            h(
              'p',
              { id: 'audit-verdict' },
              h('strong', null, audit.sound ? `✓ ${t('replay:audit.sound')}` : `✗ ${t('replay:audit.unsound')}`),
              ' — ',
              audit.checked === 'chain+rules' ? t('replay:audit.checkedRules') : t('replay:audit.checkedChain'),
              audit.events ? [', ', t('replay:audit.events', { count: audit.events, n: formatNumber(audit.events) })] : '',
            ),
            !audit.sound
              ? h('p', null, t('replay:audit.firstBad', { n: formatNumber(events.findIndex((e) => e.seq === audit!.seq) + 1), reason: audit.reason }))
              : null,
            audit.lastHash ? h('p', { class: 'mono small' }, t('replay:audit.lastHash', { hash: audit.lastHash })) : null,
          ]
        : h('p', { class: 'muted' }, t('replay:audit.checking')),
      h('p', { class: 'mono small' }, t('replay:audit.commitment', { hash: commitment ?? t('common:none') })),
      final.reveal
        ? [
            h('p', { class: 'mono small' }, t('replay:audit.revealed', { seed: final.reveal.seed })),
            h(
              'p',
              { id: 'seed-check' },
              localCheck === null
                ? t('replay:audit.seedNotChecked')
                : localCheck === commitment
                  ? `✓ ${t('replay:audit.seedEquals')}`
                  : `✗ ${t('replay:audit.seedDiffers')}`,
            ),
          ]
        : h('p', { class: 'muted' }, t('replay:audit.secret')),
      seedsBox(final, fair, me),
    );

    const seats = v
      ? v.seats.map((s) => {
          const hand = reveal?.hands[s.seat];
          return h(
            'div',
            { class: `seat ${v.turn === s.seat ? 'turn' : ''}`, 'data-seat': s.seat },
            h('div', { class: 'seat-name' }, seatNameEl(s), v.dealer === s.seat ? h('span', { class: 'badge' }, t('table:dealer')) : null),
            hand
              ? h(
                  'div',
                  { class: 'cards revealed' },
                  hand.length
                    ? hand.map((c) => cardEl(c, { width: 52, pack, value: values[c], cls: s.declared?.includes(c) ? 'declared' : '' }))
                    : h('span', { class: 'muted' }, t('replay:noCards')),
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
          h(
            'h1',
            null,
            t('replay:title', { game: final.view.preset ? gameName(final.view.preset) : t('table:match') }),
            ' ',
            h('span', { class: 'muted small' }, id.slice(0, 8)),
          ),
          h('a', { href: `#/match/${id}` }, t('replay:toTable')),
        ),
        over ? h('p', { class: 'result-line', id: 'replay-result' }, resultText(final.view, me)) : h('p', { class: 'muted' }, t('replay:notOver')),
        h(
          'div',
          { class: 'controls' },
          h('button', { id: 'step-first', onclick: () => goTo(1), disabled: step <= 1, title: t('replay:first'), 'aria-label': t('replay:first') }, '|◀'),
          h('button', { id: 'step-back', onclick: () => goTo(step - 1), disabled: step <= 1, title: t('replay:back'), 'aria-label': t('replay:back') }, '◀'),
          slider,
          h(
            'button',
            { id: 'step-forward', onclick: () => goTo(step + 1), disabled: step >= n, title: t('replay:forward'), 'aria-label': t('replay:forward') },
            '▶',
          ),
          h('button', { id: 'step-last', onclick: () => goTo(n), disabled: step >= n, title: t('replay:last'), 'aria-label': t('replay:last') }, '▶|'),
          h('span', { id: 'step-label', 'aria-live': 'polite' }, t('replay:step', { step: formatNumber(step), total: formatNumber(n) })),
        ),
        h(
          'div',
          { class: 'current-event', id: 'current-event' },
          event
            ? [
                h('strong', { 'data-type': event.type }, describeEvent(event, final.view, me)),
                event.actor ? h('span', { class: 'muted' }, ' ', t('replay:by', { actor: event.actor })) : null,
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
          event ? h('div', { class: 'mono small muted' }, t('replay:hash', { hash: event.hash })) : null,
        ),
        v
          ? h(
              'div',
              { class: 'replay-board' },
              h(
                'div',
                { class: 'muted' },
                t('table:roundOnly', { round: formatNumber(v.round) }),
                ' · ',
                t('table:deck', { count: v.deckSize, n: formatNumber(v.deckSize) }),
              ),
              h('div', { class: 'seats-grid' }, seats),
              h(
                'div',
                { class: 'felt', id: 'replay-table' },
                v.table.length ? v.table.map((c) => cardEl(c, { width: 60, pack, value: values[c] })) : h('span', { class: 'muted' }, t('table:emptyTable')),
              ),
              h(
                'div',
                { class: 'sides' },
                v.sides.map((s) =>
                  h(
                    'div',
                    { class: 'side', 'data-side': s.side },
                    h('div', { class: 'side-name' }, sideLabel(v, s.side, me)),
                    h('div', { class: 'score' }, h('span', { class: 'big' }, formatNumber(s.score)), ' ', t('replay:points', { count: s.score })),
                    h('div', null, t('table:captured', { count: s.capturedCount, n: formatNumber(s.capturedCount) }), ' · ', scopeText(s.scope)),
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
          : h('p', { class: 'muted' }, t('replay:loadingStep')),
        over && v
          ? analysisPanel({
              analysis,
              onAsk: () => void askAnalysis(),
              events: n,
              sides: final.view.sides.length,
              currentSeq: event?.seq ?? 0,
              seatName: (seat) => {
                const s = final!.view.seats[seat];
                return s ? seatLabel(s) : t('match:seatN', { seat: formatNumber(seat) });
              },
              sideName: (side) => sideLabel(final!.view, side, me),
              pack,
              moveOf,
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
    // Open where something shows: the first deal, not the empty creation of the match.
    await goTo(firstShowingStep(evs));
  })();

  return () => {
    alive = false;
    window.removeEventListener('keydown', onKey);
  };
}
