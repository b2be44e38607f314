/**
 * Playing cards drawn as SVG of our own making: the printed index in two
 * corners and the suits from simple shapes. Card codes are rank 1..10 then
 * suit D C S B (the contract's "Cards"); each game draws and names them with
 * its own pack (`packOf(preset)`), in the player's language (the `cards`
 * namespace; the names below are the Italian ones):
 *
 * - `italian` (scopa's family, chkop): denari = coin, coppe = cup, spade =
 *   sword, bastoni = baton; fante, cavallo, re printed 8, 9, 10.
 * - `spanish` (escoba): oros, copas, espadas, bastos (the same Latin shapes);
 *   sota, caballo, rey printed 10, 11, 12 (they capture as 8, 9, 10).
 * - `genoese` (cirulla, acchiappaquindici): French suits quadri (diamonds),
 *   cuori (hearts), picche (spades), fiori (clubs); rank 8 the jack (fante,
 *   J), 9 the queen (donna, Q), 10 the king (re, K).
 * - `tunisian` (chkobba): French suits dinari (diamonds), cœur, pique,
 *   trèfle; rank 8 the queen (dame, Q), 9 the jack (valet, J), 10 the king
 *   (roi, K).
 */

import { formatList, formatNumber, t } from './i18n';

export type Suit = 'D' | 'C' | 'S' | 'B';
export type Pack = 'italian' | 'spanish' | 'genoese' | 'tunisian';

/**
 * Every pack in one table: its figures' printed indices (ranks 8, 9, 10), its
 * suit shapes, and the games played with it. The names of its suits and
 * figures are words of the player's language: the `cards` namespace
 * (web/src/locales/<language>/cards.json: `<pack>.suit.<D|C|S|B>`, the
 * suit's name; `<pack>.of.<suit>`, what follows a rank ("of cups", "di
 * coppe"); `<pack>.rank.<1|8|9|10>`, the ace's and the figures' names;
 * `<pack>.letter.<8|9|10>`, a Latin figure's big middle letter). A
 * French pack's middle letter is its printed index.
 */
const PACKS: Record<Pack, { indices: [string, string, string]; shapes: 'latin' | 'french'; games: string[] }> = {
  italian: { indices: ['8', '9', '10'], shapes: 'latin', games: [] },
  spanish: { indices: ['10', '11', '12'], shapes: 'latin', games: ['escoba'] },
  genoese: { indices: ['J', 'Q', 'K'], shapes: 'french', games: ['cirulla', 'acchiappaquindici'] },
  tunisian: { indices: ['Q', 'J', 'K'], shapes: 'french', games: ['chkobba'] },
};

/** How a pack draws a card of `rank`: the corners' index, the figure's name and middle letter (none below 8). */
function face(rank: number, pack: Pack): { index: string; name: string | null; letter: string | null } {
  const { indices, shapes } = PACKS[pack];
  if (rank < 8) return { index: String(rank), name: null, letter: null };
  const index = indices[rank - 8];
  return { index, name: t(`cards:${pack}.rank.${rank}`), letter: shapes === 'french' ? index : t(`cards:${pack}.letter.${rank}`) };
}

/** The pack a game is played with: escoba Spanish, cirulla (acchiappaquindici) Genoese, chkobba Tunisian, the others Italian. */
export function packOf(preset: string | null | undefined): Pack {
  return (Object.keys(PACKS) as Pack[]).find((pack) => preset != null && PACKS[pack].games.includes(preset)) ?? 'italian';
}

/** A suit's name in a pack, in the player's language (e.g. `D`: coins, oros, quadri, carreau). */
export function suitName(suit: Suit, pack: Pack = 'italian'): string {
  return t(`cards:${pack}.suit.${suit}`);
}

/** A pack's name ("Spanish cards"). */
export function packName(pack: Pack): string {
  return t(`cards:pack.${pack}`);
}

/** What a card's corners print: its rank, but 10/11/12 for a Spanish figure and J/Q/K for a French one. */
export function printedIndex(code: string, pack: Pack = 'italian'): string {
  const c = parseCode(code);
  return c ? face(c.rank, pack).index : code;
}

const LATIN_INK: Record<Suit, string> = { D: '#7a5800', C: '#9b1c1c', S: '#1f3f7a', B: '#1b5e20' };
const LATIN_TINT: Record<Suit, string> = { D: '#fff5d6', C: '#fde8e6', S: '#e6eefb', B: '#e7f4e7' };
const FRENCH_INK: Record<Suit, string> = { D: '#c0282d', C: '#c0282d', S: '#1a1a1a', B: '#1a1a1a' };
const FRENCH_TINT: Record<Suit, string> = { D: '#fde8e6', C: '#fde8e6', S: '#ececec', B: '#ececec' };

const CODE = /^(10|[1-9])([DCSB])$/;

export function parseCode(code: string): { rank: number; suit: Suit } | null {
  const m = CODE.exec(code);
  return m ? { rank: Number(m[1]), suit: m[2] as Suit } : null;
}

/**
 * A card's one name, in its pack and the player's language: "King of cups",
 * "Re di coppe", "Rey de bastos" (the Spanish rey printed 12), "Jack of
 * spades" (Genoese, printed J), "7 of coins", "Ace of hearts". Every view
 * names cards with it; the contract code stays in data attributes and the API.
 */
export function cardName(code: string, pack: Pack = 'italian'): string {
  const c = parseCode(code);
  if (!c) return code;
  const named = c.rank === 1 || c.rank >= 8;
  const rank = named ? t(`cards:${pack}.rank.${c.rank}`) : formatNumber(c.rank);
  return t(named ? 'cards:name.figure' : 'cards:name.number', { rank, of: t(`cards:${pack}.of.${c.suit}`) });
}

/** Several cards' names, as a list of the language ("7 of cups, Ace of coins and King of swords"); none: "—". */
export function cardNames(codes: readonly string[], pack: Pack = 'italian'): string {
  return codes.length ? formatList(codes.map((code) => cardName(code, pack))) : t('common:none');
}

/** A suit symbol centred on (0,0), about 24 units wide at scale 1. */
function suitSymbol(suit: Suit, x: number, y: number, scale: number, shapes: 'latin' | 'french'): string {
  const t = `transform="translate(${x} ${y}) scale(${scale})"`;
  if (shapes === 'french') {
    const ink = FRENCH_INK[suit];
    switch (suit) {
      case 'D': // diamond
        return `<g ${t}><path d="M0 -12 L8.5 0 L0 12 L-8.5 0Z" fill="${ink}"/></g>`;
      case 'C': // heart
        return `<g ${t}><path d="M0 11 C-15 0 -12 -11 -5.5 -11 C-2.5 -11 -0.5 -8.5 0 -6 C0.5 -8.5 2.5 -11 5.5 -11 C12 -11 15 0 0 11Z" fill="${ink}"/></g>`;
      case 'S': // spade: an upturned heart on a foot
        return `<g ${t}><path d="M0 -12 C-15 -1 -12 8 -5.5 8 C-3 8 -1.2 6.5 -0.6 5 L-3.5 12 H3.5 L0.6 5 C1.2 6.5 3 8 5.5 8 C12 8 15 -1 0 -12Z" fill="${ink}"/></g>`;
      case 'B': // club: three leaves on a foot
        return `<g ${t} fill="${ink}"><circle cy="-6" r="5.2"/><circle cx="-6.2" cy="2.5" r="5.2"/><circle cx="6.2" cy="2.5" r="5.2"/><path d="M-1.4 1 L-3.8 12 H3.8 L1.4 1Z"/></g>`;
    }
  }
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
  2: [
    [50, 45],
    [50, 105],
  ],
  3: [
    [50, 40],
    [50, 75],
    [50, 110],
  ],
  4: [
    [33, 45],
    [67, 45],
    [33, 105],
    [67, 105],
  ],
  5: [
    [33, 42],
    [67, 42],
    [50, 75],
    [33, 108],
    [67, 108],
  ],
  6: [
    [33, 40],
    [67, 40],
    [33, 75],
    [67, 75],
    [33, 110],
    [67, 110],
  ],
  7: [
    [33, 36],
    [67, 36],
    [50, 60],
    [33, 84],
    [67, 84],
    [33, 113],
    [67, 113],
  ],
};

/** The SVG markup of one card, face up, drawn with its pack; `width` in CSS pixels (height is 1.5×). */
export function cardSvg(code: string, width = 72, pack: Pack = 'italian'): string {
  const c = parseCode(code);
  if (!c) return backSvg(width);
  const { rank, suit } = c;
  const { shapes } = PACKS[pack];
  const french = shapes === 'french';
  const ink = (french ? FRENCH_INK : LATIN_INK)[suit];
  const { index, name, letter } = face(rank, pack);
  const symbol = (x: number, y: number, scale: number) => suitSymbol(suit, x, y, scale, shapes);
  let middle: string;
  if (name) {
    middle =
      `<rect x="22" y="30" width="56" height="90" rx="6" fill="${(french ? FRENCH_TINT : LATIN_TINT)[suit]}" stroke="${ink}" stroke-width="1.5"/>` +
      symbol(50, 55, 1.3) +
      `<text x="50" y="103" text-anchor="middle" font-family="Georgia, 'DejaVu Serif', serif" font-weight="700" font-size="34" fill="${ink}">${letter}</text>` +
      `<text x="50" y="116" text-anchor="middle" font-family="sans-serif" font-size="9" fill="${ink}">${name}</text>`;
  } else {
    const scale = rank === 1 ? 2.3 : rank === 7 ? 0.95 : rank === 6 ? 1.05 : 1.2;
    middle = PIPS[rank].map(([x, y]) => symbol(x, y, scale)).join('');
  }
  const corner = `<text class="index" x="11" y="21" text-anchor="middle" font-family="sans-serif" font-weight="700" font-size="${index.length > 1 ? 15 : 18}" fill="${ink}">${index}</text>${symbol(11, 32, 0.42)}`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 150" width="${width}" height="${width * 1.5}" role="img" aria-label="${cardName(code, pack)}">` +
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
  for (let i = -140; i < 150; i += 14)
    lattice += `<path d="M${i} 10 L${i + 140} 150 M${i + 140} 10 L${i} 150" stroke="#e9c46a" stroke-width="1" opacity="0.45"/>`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 150" width="${width}" height="${width * 1.5}" role="img" aria-label="${t('cards:faceDown')}">` +
    `<rect x="1.5" y="1.5" width="97" height="147" rx="8" fill="#7a1f2b" stroke="#3d0f15" stroke-width="2"/>` +
    `<svg x="9" y="10" width="82" height="130" viewBox="0 10 140 140" preserveAspectRatio="none">${lattice}</svg>` +
    `<rect x="9" y="10" width="82" height="130" rx="5" fill="none" stroke="#e9c46a" stroke-width="2"/>` +
    `<circle cx="50" cy="75" r="16" fill="#7a1f2b" stroke="#e9c46a" stroke-width="2"/>` +
    `<text x="50" y="83" text-anchor="middle" font-family="Georgia, serif" font-size="22" font-weight="700" fill="#e9c46a">S</text>` +
    `</svg>`
  );
}
