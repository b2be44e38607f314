/**
 * Card names as the web client gives them (web/src/cards.ts cardName, the
 * `cards` namespace), for the browser suites to expect: each pack's words in
 * English and Spanish, and a list joined the way the page joins it.
 */
type Pack = 'italian' | 'spanish' | 'genoese' | 'tunisian';

const ENGLISH: Record<Pack, { suits: Record<string, string>; ranks: Record<number, string> }> = {
  italian: { suits: { D: 'coins', C: 'cups', S: 'swords', B: 'batons' }, ranks: { 1: 'Ace', 8: 'Jack', 9: 'Knight', 10: 'King' } },
  spanish: { suits: { D: 'coins', C: 'cups', S: 'swords', B: 'clubs' }, ranks: { 1: 'Ace', 8: 'Jack', 9: 'Knight', 10: 'King' } },
  genoese: { suits: { D: 'diamonds', C: 'hearts', S: 'spades', B: 'clubs' }, ranks: { 1: 'Ace', 8: 'Jack', 9: 'Queen', 10: 'King' } },
  tunisian: { suits: { D: 'diamonds', C: 'hearts', S: 'spades', B: 'clubs' }, ranks: { 1: 'Ace', 8: 'Queen', 9: 'Jack', 10: 'King' } },
};

const SPANISH_SPANISH = {
  suits: { D: 'oros', C: 'copas', S: 'espadas', B: 'bastos' } as Record<string, string>,
  ranks: { 1: 'As', 8: 'Sota', 9: 'Caballo', 10: 'Rey' } as Record<number, string>,
};

/** A card code's (e.g. `10B`) rank and suit. */
export function parseCard(code: string): { rank: number; suit: string } {
  const m = /^(10|[1-9])([DCSB])$/.exec(code);
  if (!m) throw new Error(`not a card code: ${code}`);
  return { rank: Number(m[1]), suit: m[2] };
}

/** The English name of a card in a pack: "King of cups", "7 of coins", "Jack of spades". */
export function englishName(code: string, pack: Pack = 'italian'): string {
  const { rank, suit } = parseCard(code);
  return `${ENGLISH[pack].ranks[rank] ?? rank} of ${ENGLISH[pack].suits[suit]}`;
}

/** The Spanish name of a card of the Spanish pack: "Rey de bastos", "7 de oros". */
export function spanishName(code: string): string {
  const { rank, suit } = parseCard(code);
  return `${SPANISH_SPANISH.ranks[rank] ?? rank} de ${SPANISH_SPANISH.suits[suit]}`;
}

/** Names joined as the page joins them in English ("a, b, and c"). */
export function englishList(names: string[]): string {
  return new Intl.ListFormat('en', { style: 'long', type: 'conjunction' }).format(names);
}

/** A card code standing alone in a text (what the page must never show where it names a card). */
export const CARD_CODE = /(^|[\s(,+])(10|[1-9])[DCSB](?=$|[\s),.:+])/;
