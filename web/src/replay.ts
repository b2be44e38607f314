import { api, currentSession } from './api';
import type { Audit, Match, MatchEvent } from './api';
import { h, mount } from './dom';
import { attempt, backs, breakdownTable, cardEl, cardRow, describeEvent, resultText, seatNameEl, sideLabel } from './widgets';

/** sha256(seed bytes) in hex, computed in this browser (null where WebCrypto is unavailable). */
async function commitmentOf(seedHex: string): Promise<string | null> {
  if (!globalThis.crypto?.subtle || !/^([0-9a-f]{2})+$/i.test(seedHex)) return null;
  const bytes = new Uint8Array(seedHex.match(/../g)!.map((b) => parseInt(b, 16)));
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return [...digest].map((b) => b.toString(16).padStart(2, '0')).join('');
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
  let step = 1;
  const cache = new Map<number, Match>();
  let alive = true;

  const fetchStep = async (n: number): Promise<Match | undefined> => {
    if (cache.has(n)) return cache.get(n);
    const m = await attempt(() => api.match(id, n));
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
    const v = at?.view;
    const reveal = at?.reveal;
    const over = final.status === 'over';
    const commitment = final.view.seedCommitment;

    const auditBox = h(
      'div',
      { class: `audit ${audit ? (audit.sound ? 'sound' : 'unsound') : ''}`, id: 'audit' },
      h('h3', null, 'Audit'),
      audit
        ? [
            h('p', { id: 'audit-verdict' }, h('strong', null, audit.sound ? '✓ sound' : '✗ UNSOUND'), ` — checked ${audit.checked}${audit.events ? `, ${audit.events} events` : ''}`),
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
    );

    const seats = v
      ? v.seats.map((s) => {
          const hand = reveal?.hands[s.seat];
          return h(
            'div',
            { class: `seat ${v.turn === s.seat ? 'turn' : ''}`, 'data-seat': s.seat },
            h('div', { class: 'seat-name' }, seatNameEl(s), v.dealer === s.seat ? h('span', { class: 'badge' }, 'dealer') : null, h('span', { class: 'muted small' }, ` seat ${s.seat} · side ${s.side}`)),
            hand ? h('div', { class: 'cards revealed' }, hand.length ? hand.map((c) => cardEl(c, { width: 52 })) : h('span', { class: 'muted' }, 'no cards')) : backs(s.handSize, 34),
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
        over ? h('p', { class: 'result-line', id: 'replay-result' }, resultText(final.view, me)) : h('p', { class: 'muted' }, 'This match is not over: each step shows the spectator view.'),
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
          event ? [h('strong', null, `#${event.seq} ${event.type}`), ' — ', describeEvent(event, final.view), event.actor ? h('span', { class: 'muted' }, ` (by ${event.actor})`) : null] : null,
          event?.type === 'CardPlayed'
            ? h('div', { class: 'played' }, cardEl(String(event.payload.card), { width: 56 }), (event.payload.capture as string[]).length ? [' ⟶ ', cardRow(event.payload.capture as string[], 44)] : null)
            : null,
          event ? h('div', { class: 'mono small muted' }, `hash ${event.hash}`) : null,
        ),
        v
          ? h(
              'div',
              { class: 'replay-board' },
              h('div', { class: 'muted' }, `round ${v.round} · deck ${v.deckSize} · phase ${v.phase}`),
              h('div', { class: 'seats-grid' }, seats),
              h('div', { class: 'felt', id: 'replay-table' }, v.table.length ? v.table.map((c) => cardEl(c, { width: 60 })) : h('span', { class: 'muted' }, 'The table is empty.')),
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
                    cardRow(s.captured, 24),
                  ),
                ),
              ),
              event?.type === 'RoundScored' && v.rounds.length ? breakdownTable(v, v.rounds.length - 1, me) : null,
            )
          : h('p', { class: 'muted' }, 'Loading this step…'),
        auditBox,
      ),
    );
  };

  render();
  void (async () => {
    const [m, evs, a] = await Promise.all([attempt(() => api.match(id)), attempt(() => api.events(id)), attempt(() => api.audit(id))]);
    if (!alive || !m || !evs) return;
    final = m;
    events = evs;
    audit = a ?? null;
    if (m.reveal) localCheck = await commitmentOf(m.reveal.seed);
    await goTo(1);
  })();

  return () => {
    alive = false;
    window.removeEventListener('keydown', onKey);
  };
}
