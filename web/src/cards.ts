/**
 * Playing cards drawn as SVG of our own making: a numeral in two corners and
 * the Italian suits from simple shapes (denari = coin, coppe = cup, spade =
 * sword, bastoni = baton). Card codes are rank 1..10 then suit D C S B.
 */

export type Suit = 'D' | 'C' | 'S' | 'B';

export const SUIT_NAMES: Record<Suit, string> = { D: 'denari', C: 'coppe', S: 'spade', B: 'bastoni' };
const FIGURES: Record<number, [string, string]> = { 8: ['F', 'Fante'], 9: ['C', 'Cavallo'], 10: ['R', 'Re'] };
const INK: Record<Suit, string> = { D: '#7a5800', C: '#9b1c1c', S: '#1f3f7a', B: '#1b5e20' };
const TINT: Record<Suit, string> = { D: '#fff5d6', C: '#fde8e6', S: '#e6eefb', B: '#e7f4e7' };

const CODE = /^(10|[1-9])([DCSB])$/;

export function parseCode(code: string): { rank: number; suit: Suit } | null {
  const m = CODE.exec(code);
  return m ? { rank: Number(m[1]), suit: m[2] as Suit } : null;
}

export function cardName(code: string): string {
  const c = parseCode(code);
  if (!c) return code;
  const fig = FIGURES[c.rank];
  return `${fig ? `${fig[1]} (${c.rank})` : c.rank} di ${SUIT_NAMES[c.suit]}`;
}

/** A suit symbol centred on (0,0), about 24 units wide at scale 1. */
function suitSymbol(suit: Suit, x: number, y: number, scale: number): string {
  const t = `transform="translate(${x} ${y}) scale(${scale})"`;
  switch (suit) {
    case 'D': // coin: a gold disc, a ring and a lozenge
      return `<g ${t}><circle r="11" fill="#e3b324" stroke="#8a6a00" stroke-width="1.6"/><circle r="6.5" fill="none" stroke="#8a6a00" stroke-width="1.3"/><path d="M0 -3.5 L3.5 0 L0 3.5 L-3.5 0Z" fill="#8a6a00"/></g>`;
    case 'C': // cup: a bowl, a stem and a foot
      return `<g ${t}><path d="M-10 -11 H10 Q10 1 0 3 Q-10 1 -10 -11Z" fill="#c0392b" stroke="#7f1d1d" stroke-width="1.2"/><rect x="-1.8" y="3" width="3.6" height="6" fill="#9b1c1c"/><ellipse cy="10.5" rx="7.5" ry="2.4" fill="#c0392b" stroke="#7f1d1d" stroke-width="1"/></g>`;
    case 'S': // sword: a blade, a cross-guard, a grip and a pommel
      return `<g ${t}><path d="M0 -13 L3 -8 L3 4 L-3 4 L-3 -8Z" fill="#5b8bd6" stroke="#1f3f7a" stroke-width="1"/><rect x="-8" y="4" width="16" height="3" rx="1.2" fill="#1f3f7a"/><rect x="-1.8" y="7" width="3.6" height="4.5" fill="#8d5524"/><circle cy="13" r="2.2" fill="#1f3f7a"/></g>`;
    case 'B': // baton: a knotty club, wider at the top
      return `<g ${t}><path d="M-2.6 13 L-5.5 -8 Q0 -15 5.5 -8 L2.6 13Z" fill="#3f8f3f" stroke="#1b4d1e" stroke-width="1.2"/><circle cx="-3" cy="-3" r="1.6" fill="#1b4d1e"/><circle cx="2.8" cy="3" r="1.5" fill="#1b4d1e"/><circle cx="-1.2" cy="8" r="1.2" fill="#1b4d1e"/></g>`;
  }
}

const PIPS: Record<number, [number, number][]> = {
  1: [[50, 75]],
  2: [[50, 45], [50, 105]],
  3: [[50, 40], [50, 75], [50, 110]],
  4: [[33, 45], [67, 45], [33, 105], [67, 105]],
  5: [[33, 42], [67, 42], [50, 75], [33, 108], [67, 108]],
  6: [[33, 40], [67, 40], [33, 75], [67, 75], [33, 110], [67, 110]],
  7: [[33, 36], [67, 36], [50, 60], [33, 84], [67, 84], [33, 113], [67, 113]],
};

/** The SVG markup of one card, face up; `width` in CSS pixels (height is 1.5×). */
export function cardSvg(code: string, width = 72): string {
  const c = parseCode(code);
  if (!c) return backSvg(width);
  const { rank, suit } = c;
  const ink = INK[suit];
  const fig = FIGURES[rank];
  let middle: string;
  if (fig) {
    middle =
      `<rect x="22" y="30" width="56" height="90" rx="6" fill="${TINT[suit]}" stroke="${ink}" stroke-width="1.5"/>` +
      suitSymbol(suit, 50, 55, 1.3) +
      `<text x="50" y="103" text-anchor="middle" font-family="Georgia, 'DejaVu Serif', serif" font-weight="700" font-size="34" fill="${ink}">${fig[0]}</text>` +
      `<text x="50" y="116" text-anchor="middle" font-family="sans-serif" font-size="9" fill="${ink}">${fig[1]}</text>`;
  } else {
    const scale = rank === 1 ? 2.3 : rank === 7 ? 0.95 : rank === 6 ? 1.05 : 1.2;
    middle = PIPS[rank].map(([x, y]) => suitSymbol(suit, x, y, scale)).join('');
  }
  const corner = `<text x="11" y="21" text-anchor="middle" font-family="sans-serif" font-weight="700" font-size="${rank === 10 ? 15 : 18}" fill="${ink}">${rank}</text>${suitSymbol(suit, 11, 32, 0.42)}`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 150" width="${width}" height="${width * 1.5}" role="img" aria-label="${cardName(code)}">` +
    `<rect x="1.5" y="1.5" width="97" height="147" rx="8" fill="#fffdf7" stroke="#555" stroke-width="2"/>` +
    corner +
    `<g transform="rotate(180 50 75)">${corner}</g>` +
    middle +
    `</svg>`
  );
}

/** A card face down (another seat's hand). */
export function backSvg(width = 40): string {
  let lattice = '';
  for (let i = -140; i < 150; i += 14) lattice += `<path d="M${i} 10 L${i + 140} 150 M${i + 140} 10 L${i} 150" stroke="#e9c46a" stroke-width="1" opacity="0.45"/>`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 150" width="${width}" height="${width * 1.5}" role="img" aria-label="card face down">` +
    `<rect x="1.5" y="1.5" width="97" height="147" rx="8" fill="#7a1f2b" stroke="#3d0f15" stroke-width="2"/>` +
    `<svg x="9" y="10" width="82" height="130" viewBox="0 10 140 140" preserveAspectRatio="none">${lattice}</svg>` +
    `<rect x="9" y="10" width="82" height="130" rx="5" fill="none" stroke="#e9c46a" stroke-width="2"/>` +
    `<circle cx="50" cy="75" r="16" fill="#7a1f2b" stroke="#e9c46a" stroke-width="2"/>` +
    `<text x="50" y="83" text-anchor="middle" font-family="Georgia, serif" font-size="22" font-weight="700" fill="#e9c46a">S</text>` +
    `</svg>`
  );
}
