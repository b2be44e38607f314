/**
 * The rating chart: rating over rated matches as an SVG we draw ourselves (no
 * chart library for one polyline): axes with ticks, the RD band (rating ± RD
 * after each match), and one marker per rated match whose shape says the
 * result, so that the chart reads without colour.
 */
import type { RatingPoint } from '@scopa/sdk';
import { formatDate, formatNumber, t } from './i18n';

const SVG = 'http://www.w3.org/2000/svg';

type SvgChild = SVGElement | string | null | false | SvgChild[];

function s<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number> = {}, ...children: SvgChild[]): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  const add = (c: SvgChild) => {
    if (c === null || c === false) return;
    if (Array.isArray(c)) c.forEach(add);
    else el.append(c);
  };
  children.forEach(add);
  return el;
}

/**
 * A round step giving about `count` intervals over `span`: 1, 2, 2.5 or 5
 * times a power of ten; with `whole`, a whole number without the 2.5.
 */
export function niceStep(span: number, count: number, whole = false): number {
  const raw = Math.max(span, 1) / Math.max(count, 1);
  if (whole && raw <= 1) return 1;
  const pow = 10 ** Math.floor(Math.log10(raw));
  for (const m of whole ? [1, 2, 5] : [1, 2, 2.5, 5]) if (m * pow >= raw) return m * pow;
  return 10 * pow;
}

const W = 720;
const H = 260;
const M = { left: 56, right: 16, top: 14, bottom: 44 };

/** A rating or an RD as people read it: whole, without grouping (1523), in the language's digits. */
export const formatRating = (r: number): string => formatNumber(r, { maximumFractionDigits: 0, useGrouping: false });

/** A rated match's result (win, loss, draw) in words. */
export const resultText = (result: string): string => (['win', 'loss', 'draw'].includes(result) ? t(`chart:result.${result}`) : result);

export function chartSummary(pool: string, points: RatingPoint[]): string {
  const last = points[points.length - 1];
  return t('chart:summary', {
    pool,
    count: points.length,
    n: formatNumber(points.length),
    from: formatRating(points[0].ratingBefore),
    to: formatRating(last.rating),
    rd: formatRating(last.rd),
  });
}

/** The chart of a non-empty history (oldest first); x = rated matches (0: before the first), y = rating. */
export function ratingChart(pool: string, points: RatingPoint[]): SVGSVGElement {
  const n = points.length;
  const ratings = [points[0].ratingBefore, ...points.map((p) => p.rating)];
  const step = niceStep(Math.max(...ratings) - Math.min(...ratings) + 120, 5);
  const lo = Math.floor((Math.min(...ratings) - 60) / step) * step;
  const hi = Math.ceil((Math.max(...ratings) + 60) / step) * step;
  const plotW = W - M.left - M.right;
  const plotH = H - M.top - M.bottom;
  const x = (i: number) => M.left + (i * plotW) / n;
  const y = (r: number) => M.top + ((hi - r) * plotH) / (hi - lo);
  const fmt = (v: number) => v.toFixed(1);

  const yTicks: number[] = [];
  for (let v = lo; v <= hi + 1e-9; v += step) yTicks.push(v);
  // Match numbers are whole: steps of 1, 2, 5, 10, 20, ...
  const xStep = Math.max(1, niceStep(n, 10, true));
  const xTicks: number[] = [];
  for (let i = 0; i <= n; i += xStep) xTicks.push(i);
  // The last match always gets its label; a regular tick too close to it gives way.
  if (xTicks[xTicks.length - 1] !== n) {
    if (n - xTicks[xTicks.length - 1] < xStep / 2 && xTicks.length > 1) xTicks.pop();
    xTicks.push(n);
  }

  // The band: rating + RD left to right, then rating - RD right to left (RD is known after each match).
  const band = [
    ...points.map((p, i) => `${fmt(x(i + 1))},${fmt(y(p.rating + p.rd))}`),
    ...points.map((p, i) => `${fmt(x(i + 1))},${fmt(y(p.rating - p.rd))}`).reverse(),
  ].join(' ');
  const line = ratings.map((r, i) => `${fmt(x(i))},${fmt(y(r))}`).join(' ');

  // Smaller markers when there are many (up to 1,000 points in a history).
  const size = n > 60 ? 4 : 9;
  const marker = (p: RatingPoint, i: number) => {
    const cx = x(i + 1);
    const cy = y(p.rating);
    const title = s(
      'title',
      {},
      t('chart:point', {
        n: formatNumber(i + 1),
        result: resultText(p.result),
        time: formatDate(p.time),
        before: formatRating(p.ratingBefore),
        after: formatRating(p.rating),
        rd: formatRating(p.rd),
      }),
    );
    const common = { class: `point ${p.result}`, 'data-match': p.matchId, 'data-result': p.result };
    return p.result === 'draw'
      ? s('rect', { ...common, x: fmt(cx - size / 2), y: fmt(cy - size / 2), width: size, height: size }, title)
      : s('circle', { ...common, cx: fmt(cx), cy: fmt(cy), r: size / 2 }, title);
  };

  const summary = chartSummary(pool, points);
  return s(
    'svg',
    // Time runs left to right in every language (the page's right-to-left direction would move the ticks' labels).
    { id: 'rating-chart', class: 'rating-chart', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': summary, 'data-points': n, direction: 'ltr' },
    s('title', {}, summary),
    s('desc', {}, t('chart:description')),
    s('defs', {}, s('clipPath', { id: 'rating-chart-plot' }, s('rect', { x: M.left, y: M.top, width: plotW, height: plotH }))),
    // Grid and y axis.
    yTicks.map((v) => [
      s('line', { class: 'grid', x1: M.left, x2: W - M.right, y1: fmt(y(v)), y2: fmt(y(v)) }),
      s('text', { class: 'tick', x: M.left - 6, y: fmt(y(v) + 4), 'text-anchor': 'end' }, formatRating(v)),
    ]),
    s('line', { class: 'axis', x1: M.left, x2: M.left, y1: M.top, y2: H - M.bottom }),
    s('line', { class: 'axis', x1: M.left, x2: W - M.right, y1: H - M.bottom, y2: H - M.bottom }),
    xTicks.map((i) => [
      s('line', { class: 'axis', x1: fmt(x(i)), x2: fmt(x(i)), y1: H - M.bottom, y2: H - M.bottom + 5 }),
      s('text', { class: 'tick', x: fmt(x(i)), y: H - M.bottom + 18, 'text-anchor': 'middle' }, formatNumber(i)),
    ]),
    s('text', { class: 'axis-title', x: M.left + plotW / 2, y: H - 6, 'text-anchor': 'middle' }, t('chart:xAxis')),
    s(
      'text',
      { class: 'axis-title', x: 14, y: M.top + plotH / 2, 'text-anchor': 'middle', transform: `rotate(-90 14 ${M.top + plotH / 2})` },
      t('chart:yAxis'),
    ),
    s('g', { 'clip-path': 'url(#rating-chart-plot)' }, s('polygon', { class: 'rd-band', points: band }), s('polyline', { class: 'rating-line', points: line })),
    points.map(marker),
  );
}
