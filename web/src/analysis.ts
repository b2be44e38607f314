/**
 * The post-game analysis under the replay's table (docs/analysis.md): each
 * side's expected round points through the match as a curve (the value of
 * the option it played at each of its decisions), its inaccuracies, mistakes
 * and blunders marked on it, and a legend naming each side's line; a mark
 * jumps the replay to that move, where the option played is shown beside the
 * best one. Moves and cards are named in the player's words, never by seq,
 * code or analyzer id.
 */
import type { Analysis, DecisionAnalysis } from '@scopa/sdk';
import { cardName, cardNames } from './cards';
import type { Pack } from './cards';
import { h } from './dom';
import { formatNumber, t } from './i18n';

const SVG = 'http://www.w3.org/2000/svg';
const W = 960;
const H = 240;
const M = { left: 48, right: 12, top: 12, bottom: 32 };
const MARKED = ['inaccuracy', 'mistake', 'blunder'];
const CLASSES = ['best', 'good', 'inaccuracy', 'mistake', 'blunder'];
const SIDE_COLOURS = ['#1f6feb', '#d1242f', '#1a7f37', '#8250df'];
/** Each side's line also has its own dashes: the legend reads without colour. */
const SIDE_DASHES = ['', '7 4', '2 3', '10 3 2 3'];

function s<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number> = {},
  ...children: (SVGElement | string)[]
): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== '') el.setAttribute(k, String(v));
  for (const c of children) el.append(c);
  return el;
}

type Option = DecisionAnalysis['options'][number]['option'];

/** What a decision's option does, its cards named by the pack: "King of cups takes 3 of coins and 7 of swords". */
export function optionText(o: Option, pack: Pack = 'italian'): string {
  if (o.type === 'play') {
    const card = cardName(o.card ?? '', pack);
    const base = o.capture && o.capture.length ? t('analysis:option.takes', { card, cards: cardNames(o.capture, pack) }) : t('analysis:option.lays', { card });
    return o.scopa ? t('analysis:option.scopa', { play: base }) : base;
  }
  if (o.type === 'declare')
    return o.mattaValue != null
      ? t('analysis:option.declareMatta', { value: formatNumber(o.mattaValue), count: o.points ?? 0, n: formatNumber(o.points ?? 0) })
      : t('analysis:option.declare', { count: o.points ?? 0, n: formatNumber(o.points ?? 0) });
  return t('analysis:option.noDeclaration');
}

const signed = (v: number) => formatNumber(v, { minimumFractionDigits: 2, maximumFractionDigits: 2, signDisplay: 'exceptZero' });
const className = (c: string) => (CLASSES.includes(c) ? t(`analysis:class.${c}`) : c);

/** The curve and its marks; `onMark` is called with the decision of a clicked mark; `moveOf(seq)`: the move a seq is. */
export function analysisChart(
  decisions: DecisionAnalysis[],
  events: number,
  sides: number,
  currentSeq: number,
  onMark: (d: DecisionAnalysis) => void,
  moveOf: (seq: number) => number = (seq) => seq,
): SVGSVGElement {
  const values = decisions.map((d) => d.playedValue);
  const top = Math.max(1, ...values.map(Math.abs));
  const plotW = W - M.left - M.right;
  const plotH = H - M.top - M.bottom;
  const x = (seq: number) => M.left + (seq / Math.max(1, events)) * plotW;
  const y = (v: number) => M.top + ((top - v) / (2 * top)) * plotH;
  const svg = s('svg', {
    viewBox: `0 0 ${W} ${H}`,
    id: 'analysis-chart',
    // A group, not an image: its marks are buttons one can reach and press (an image's content is not).
    role: 'group',
    'aria-label': t('analysis:chartLabel'),
  });
  svg.append(s('line', { x1: M.left, x2: W - M.right, y1: y(0), y2: y(0), class: 'axis' }));
  for (const v of [top, -top]) svg.append(s('text', { x: M.left - 6, y: y(v) + 4, 'text-anchor': 'end', class: 'tick' }, signed(v)));
  svg.append(s('text', { x: M.left - 6, y: y(0) + 4, 'text-anchor': 'end', class: 'tick' }, formatNumber(0)));
  svg.append(s('line', { x1: x(currentSeq), x2: x(currentSeq), y1: M.top, y2: H - M.bottom, class: 'now', id: 'analysis-now' }));
  for (let side = 0; side < sides; side++) {
    const mine = decisions.filter((d) => d.side === side);
    if (mine.length === 0) continue;
    const colour = SIDE_COLOURS[side % SIDE_COLOURS.length];
    svg.append(
      s('polyline', {
        points: mine.map((d) => `${x(d.seq).toFixed(1)},${y(d.playedValue).toFixed(1)}`).join(' '),
        fill: 'none',
        stroke: colour,
        'stroke-width': 1.8,
        'stroke-dasharray': SIDE_DASHES[side % SIDE_DASHES.length],
        class: 'curve',
        'data-side': side,
      }),
    );
    for (const d of mine) {
      if (!MARKED.includes(d.class)) continue;
      const r = d.class === 'blunder' ? 7 : d.class === 'mistake' ? 5.5 : 4;
      const label = t('analysis:markTitle', {
        move: formatNumber(moveOf(d.seq)),
        kind: className(d.class),
        loss: formatNumber(d.loss, { maximumFractionDigits: 2 }),
      });
      const mark = s(
        'circle',
        {
          cx: x(d.seq).toFixed(1),
          cy: y(d.playedValue).toFixed(1),
          r,
          class: `mark mark-${d.class}`,
          stroke: colour,
          'data-seq': d.seq,
          'data-class': d.class,
          tabindex: 0,
          role: 'button',
          'aria-label': label,
        },
        s('title', {}, label),
      );
      mark.addEventListener('click', () => onMark(d));
      mark.addEventListener('keydown', (ev) => {
        const key = (ev as KeyboardEvent).key;
        if (key === 'Enter' || key === ' ') {
          ev.preventDefault();
          onMark(d);
        }
      });
      svg.append(mark);
    }
  }
  svg.append(s('text', { x: W - M.right, y: H - 8, 'text-anchor': 'end', class: 'tick' }, t('analysis:axis')));
  return svg;
}

/** Best against played for the decisions made at `seq` (a declaration window and its play share one). */
export function decisionDetail(
  decisions: DecisionAnalysis[],
  seq: number,
  seatName: (seat: number) => string,
  pack: Pack = 'italian',
  moveOf: (seq: number) => number = (n) => n,
): HTMLElement | null {
  const here = decisions.filter((d) => d.seq === seq);
  if (here.length === 0) return null;
  return h(
    'div',
    { id: 'decision-detail', class: 'decision-detail' },
    here.map((d) => {
      const played = d.options[d.played];
      const best = d.options[d.best];
      return h(
        'div',
        { class: `decision decision-${d.class}`, 'data-seq': d.seq, 'data-kind': d.kind },
        h(
          'strong',
          null,
          t(d.kind === 'play' ? 'analysis:decisionPlay' : 'analysis:decisionDeclaration', { player: seatName(d.seat), move: formatNumber(moveOf(d.seq)) }),
          ' ',
        ),
        h('span', { class: `badge class-${d.class}`, id: d.kind === 'play' ? 'decision-class' : undefined }, className(d.class)),
        d.forced ? h('span', { class: 'muted' }, ' ', t('analysis:forced')) : null,
        h(
          'div',
          { class: 'played-option' },
          t('analysis:played'),
          ' ',
          h('span', { class: 'option' }, optionText(played.option, pack)),
          ` (${signed(played.value)})`,
        ),
        d.played === d.best
          ? null
          : h(
              'div',
              { class: 'best-option' },
              t('analysis:best'),
              ' ',
              h('span', { class: 'option' }, optionText(best.option, pack)),
              ` (${signed(best.value)}); `,
              t('analysis:lost', { loss: formatNumber(d.loss, { maximumFractionDigits: 2 }) }),
            ),
        h(
          'div',
          { class: 'muted small' },
          d.method === 'exact' ? t('analysis:exact') : t('analysis:searched'),
          '; ',
          t('analysis:options', { count: d.options.length, n: formatNumber(d.options.length) }),
        ),
      );
    }),
  );
}

/** The analyzer in words: "the strong bot's search" for ismcts, with its budget. */
function analyzerText(analyzer: { id: string; budget: { iterationsPerOption: number } }): string {
  const n = formatNumber(analyzer.budget.iterationsPerOption);
  return analyzer.id.startsWith('ismcts/') ? t('analysis:analyzer.strong', { n }) : t('analysis:analyzer.other', { n });
}

/** The panel: ask for the analysis, its progress, or its curve with its legend, the seats' summaries and the current decision. */
export function analysisPanel(args: {
  analysis: Analysis | null;
  onAsk: () => void;
  events: number;
  sides: number;
  currentSeq: number;
  seatName: (seat: number) => string;
  /** Who plays on a side, for the legend. */
  sideName: (side: number) => string;
  onMark: (d: DecisionAnalysis) => void;
  pack?: Pack;
  /** The move a seq is (the plays and declarations counted from the first). */
  moveOf?: (seq: number) => number;
}): HTMLElement {
  const { analysis } = args;
  const moveOf = args.moveOf ?? ((seq: number) => seq);
  const body = (() => {
    if (!analysis || analysis.status === 'failed')
      return [
        analysis?.status === 'failed' ? h('p', { class: 'bad' }, t('analysis:failed')) : h('p', { class: 'muted' }, t('analysis:intro')),
        h('button', { id: 'analyse', onclick: args.onAsk }, t('analysis:ask')),
      ];
    if (analysis.status !== 'done' || !analysis.result)
      return h(
        'p',
        { id: 'analysis-progress' },
        analysis.status === 'queued' ? t('analysis:queued') : t('analysis:running'),
        ' ',
        h('progress', { max: 1, value: analysis.share, 'aria-label': t('analysis:progress') }),
        ' ',
        analysis.total
          ? t('analysis:share', { share: formatNumber(analysis.share, { style: 'percent' }), count: analysis.total, n: formatNumber(analysis.total) })
          : formatNumber(analysis.share, { style: 'percent' }),
      );
    const r = analysis.result;
    const sidesPlayed = [...new Set(r.decisions.map((d) => d.side))].sort((a, b) => a - b);
    return [
      h(
        'ul',
        { class: 'analysis-legend', id: 'analysis-legend' },
        sidesPlayed.map((side) => h('li', { 'data-side': side }, fromSvg(side), t('analysis:legendSide', { player: args.sideName(side) }))),
      ),
      h('div', { class: 'chart-wrap' }, analysisChart(r.decisions, args.events, args.sides, args.currentSeq, args.onMark, moveOf)),
      h(
        'div',
        { class: 'legend muted small' },
        h('span', { class: 'mark-key mark-inaccuracy' }, '● ', t('analysis:class.inaccuracy')),
        ' ',
        h('span', { class: 'mark-key mark-mistake' }, '● ', t('analysis:class.mistake')),
        ' ',
        h('span', { class: 'mark-key mark-blunder' }, '● ', t('analysis:class.blunder')),
        ' — ',
        t('analysis:explain'),
        ' ',
        analyzerText(r.analyzer),
      ),
      h(
        'table',
        { class: 'analysis-players', id: 'analysis-players', tabindex: 0 },
        h(
          'tr',
          null,
          h('th', null, t('analysis:col.player')),
          h('th', null, t('analysis:col.accuracy')),
          h('th', null, t('analysis:col.loss')),
          h('th', null, t('analysis:col.inaccuracies')),
          h('th', null, t('analysis:col.mistakes')),
          h('th', null, t('analysis:col.blunders')),
        ),
        r.players.map((p) =>
          h(
            'tr',
            { 'data-seat': p.seat },
            h('td', null, args.seatName(p.seat)),
            h('td', null, formatNumber(p.accuracy, { minimumFractionDigits: 1, maximumFractionDigits: 1 })),
            h('td', null, formatNumber(p.totalLoss, { minimumFractionDigits: 2, maximumFractionDigits: 2 })),
            h('td', null, formatNumber(p.classes.inaccuracy)),
            h('td', null, formatNumber(p.classes.mistake)),
            h('td', null, formatNumber(p.classes.blunder)),
          ),
        ),
      ),
      decisionDetail(r.decisions, args.currentSeq, args.seatName, args.pack, moveOf),
    ];
  })();
  return h('div', { class: 'analysis', id: 'analysis' }, h('h3', null, t('analysis:title')), body);
}

/** A side's swatch in the legend: a short stretch of its line, its colour and dashes. */
function fromSvg(side: number): SVGSVGElement {
  return s(
    'svg',
    { class: 'swatch-line', width: 28, height: 10, viewBox: '0 0 28 10', 'aria-hidden': 'true' },
    s('line', {
      x1: 1,
      x2: 27,
      y1: 5,
      y2: 5,
      stroke: SIDE_COLOURS[side % SIDE_COLOURS.length],
      'stroke-width': 3,
      'stroke-dasharray': SIDE_DASHES[side % SIDE_DASHES.length],
    }),
  );
}
