/**
 * The post-game analysis under the replay's table (docs/analysis.md): each
 * side's expected round points through the match as a curve (the value of
 * the option it played at each of its decisions), its inaccuracies, mistakes
 * and blunders marked on it; a mark jumps the replay to that seq, where the
 * option played is shown beside the best one.
 */
import type { Analysis, DecisionAnalysis } from '@scopa/sdk';
import { h } from './dom';

const SVG = 'http://www.w3.org/2000/svg';
const W = 720;
const H = 220;
const M = { left: 44, right: 12, top: 12, bottom: 28 };
const MARKED = ['inaccuracy', 'mistake', 'blunder'];
const SIDE_COLOURS = ['#1f6feb', '#d1242f', '#1a7f37', '#8250df'];

function s<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number> = {},
  ...children: (SVGElement | string)[]
): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children) el.append(c);
  return el;
}

type Option = DecisionAnalysis['options'][number]['option'];

export function optionText(o: Option): string {
  if (o.type === 'play') return `${o.card}${o.capture && o.capture.length ? ` takes ${o.capture.join(' + ')}` : ' laid'}${o.scopa ? ' (scopa)' : ''}`;
  if (o.type === 'declare') return `declare${o.mattaValue != null ? ` (matta as ${o.mattaValue})` : ''}: ${o.points} scope`;
  return 'no declaration';
}

const signed = (v: number) => `${v > 0 ? '+' : ''}${v.toFixed(2)}`;

/** The curve and its marks; `onMark` is called with the decision of a clicked mark. */
export function analysisChart(
  decisions: DecisionAnalysis[],
  events: number,
  sides: number,
  currentSeq: number,
  onMark: (d: DecisionAnalysis) => void,
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
    role: 'img',
    'aria-label': 'expected round points of each side, decision by decision',
  });
  svg.append(s('line', { x1: M.left, x2: W - M.right, y1: y(0), y2: y(0), class: 'axis' }));
  for (const v of [top, -top]) svg.append(s('text', { x: M.left - 6, y: y(v) + 4, 'text-anchor': 'end', class: 'tick' }, signed(v)));
  svg.append(s('text', { x: M.left - 6, y: y(0) + 4, 'text-anchor': 'end', class: 'tick' }, '0'));
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
        'stroke-width': 1.6,
        class: 'curve',
        'data-side': side,
      }),
    );
    for (const d of mine) {
      if (!MARKED.includes(d.class)) continue;
      const r = d.class === 'blunder' ? 7 : d.class === 'mistake' ? 5.5 : 4;
      const title = s('title', {}, `#${d.seq} ${d.class}: lost ${d.loss.toFixed(2)}`);
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
        },
        title,
      );
      mark.addEventListener('click', () => onMark(d));
      mark.addEventListener('keydown', (ev) => {
        if ((ev as KeyboardEvent).key === 'Enter') onMark(d);
      });
      svg.append(mark);
    }
  }
  svg.append(s('text', { x: W - M.right, y: H - 8, 'text-anchor': 'end', class: 'tick' }, 'seq →'));
  return svg;
}

/** Best against played for the decisions made at `seq` (a declaration window and its play share one). */
export function decisionDetail(decisions: DecisionAnalysis[], seq: number, seatName: (seat: number) => string): HTMLElement | null {
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
        h('strong', null, `${seatName(d.seat)}, ${d.kind === 'play' ? 'play' : 'declaration'}: `),
        h('span', { class: `badge class-${d.class}`, id: d.kind === 'play' ? 'decision-class' : undefined }, d.class),
        d.forced ? h('span', { class: 'muted' }, ' (forced)') : null,
        h('div', { class: 'played-option' }, 'played: ', h('span', { class: 'mono' }, optionText(played.option)), ` (${signed(played.value)})`),
        d.played === d.best
          ? null
          : h(
              'div',
              { class: 'best-option' },
              'best: ',
              h('span', { class: 'mono' }, optionText(best.option)),
              ` (${signed(best.value)}); lost ${d.loss.toFixed(2)}`,
            ),
        h(
          'div',
          { class: 'muted small' },
          `${d.method === 'exact' ? 'exact (every line searched)' : 'searched from the seat’s view'}; ${d.options.length} option${d.options.length === 1 ? '' : 's'}`,
        ),
      );
    }),
  );
}

/** The panel: ask for the analysis, its progress, or its curve, the seats' summaries and the current decision. */
export function analysisPanel(args: {
  analysis: Analysis | null;
  onAsk: () => void;
  events: number;
  sides: number;
  currentSeq: number;
  seatName: (seat: number) => string;
  onMark: (d: DecisionAnalysis) => void;
}): HTMLElement {
  const { analysis } = args;
  const body = (() => {
    if (!analysis || analysis.status === 'failed')
      return [
        analysis?.status === 'failed'
          ? h('p', { class: 'bad' }, `The analysis failed: ${analysis.error ?? 'unknown error'}`)
          : h('p', { class: 'muted' }, 'Where was each point won or lost? A worker values every decision of every seat.'),
        h('button', { id: 'analyse', onclick: args.onAsk }, 'Analyse this match'),
      ];
    if (analysis.status !== 'done' || !analysis.result)
      return h(
        'p',
        { id: 'analysis-progress' },
        `${analysis.status}… `,
        h('progress', { max: 1, value: analysis.share }),
        ` ${Math.round(analysis.share * 100)}% of ${analysis.total || '?'} decisions`,
      );
    const r = analysis.result;
    return [
      h('div', { class: 'chart-wrap' }, analysisChart(r.decisions, args.events, args.sides, args.currentSeq, args.onMark)),
      h(
        'div',
        { class: 'legend muted small' },
        h('span', { class: 'mark-key mark-inaccuracy' }, '● inaccuracy'),
        ' ',
        h('span', { class: 'mark-key mark-mistake' }, '● mistake'),
        ' ',
        h('span', { class: 'mark-key mark-blunder' }, '● blunder'),
        ` — each side's expected round points (its points minus the other's at the round's end) after each of its decisions; ${r.analyzer.id}, ${r.analyzer.budget.iterationsPerOption} iterations per option`,
      ),
      h(
        'table',
        { class: 'analysis-players', id: 'analysis-players', tabindex: 0 },
        h(
          'tr',
          null,
          h('th', null, 'seat'),
          h('th', null, 'accuracy'),
          h('th', null, 'loss'),
          h('th', null, 'inaccuracies'),
          h('th', null, 'mistakes'),
          h('th', null, 'blunders'),
        ),
        r.players.map((p) =>
          h(
            'tr',
            { 'data-seat': p.seat },
            h('td', null, args.seatName(p.seat)),
            h('td', null, p.accuracy.toFixed(1)),
            h('td', null, p.totalLoss.toFixed(2)),
            h('td', null, String(p.classes.inaccuracy)),
            h('td', null, String(p.classes.mistake)),
            h('td', null, String(p.classes.blunder)),
          ),
        ),
      ),
      decisionDetail(r.decisions, args.currentSeq, args.seatName),
    ];
  })();
  return h('div', { class: 'analysis', id: 'analysis' }, h('h3', null, 'Analysis'), body);
}
