/**
 * Each preset's name and two-line summary, in English, for people choosing a
 * game (GET /v1/rulesets, GraphQL `rulesets`/`preset`): what the game is,
 * then what sets it apart. Clients translate them; the rules themselves are
 * the engine's (src/engine/options.ts) and the contract's, never these words.
 * Line one says what the game is, line two how it scores or what differs.
 */
import type { PresetId } from '../engine';

export interface PresetDescription {
  name: string;
  /** Two lines, separated by "\n". */
  summary: string;
}

export const PRESET_DESCRIPTIONS: Record<PresetId, PresetDescription> = {
  scopa: {
    name: 'Scopa',
    summary:
      'The classic Italian game for 2 to 4: take a card of the same value, or cards that add up to it; clear the table for a scopa.\n' +
      'Cards and denari need a strict majority, the primiera all four suits; first to 11.',
  },
  'scopa-fr': {
    name: 'Scopa (French rules)',
    summary:
      'Scopa as the French rule books play it, for 2, 3, 4 or 6 players.\n' +
      'A sum takes at most two cards, and the fewest cards when there is a choice; a missing suit counts zero in the primiera.',
  },
  'scopa-initiation': {
    name: 'Scopa for beginners',
    summary:
      'A first scopa: no primiera to count, the most sevens score instead.\n' +
      'A sum takes at most two cards, and the fewest cards when there is a choice; first to 11.',
  },
  'scopa-simple': {
    name: 'Simple scopa',
    summary:
      'The plainest scopa: no redeal when kings are dealt to the table, no primiera.\n' +
      'Most cards, most denari, the settebello and the most sevens score; first to 11.',
  },
  scopone: {
    name: 'Scopone',
    summary: 'Four players in two partnerships, nine cards each and four on the table.\n' + 'Scored like scopa, primiera included; the first side to 11 wins.',
  },
  'scopone-scientifico': {
    name: 'Scopone scientifico',
    summary:
      'Four players in two partnerships; all forty cards are dealt, ten each, and the table starts empty.\n' +
      'Scored like scopa, primiera included; the first side to 11 wins.',
  },
  'scopone-trenta': {
    name: 'Scopone a trenta',
    summary:
      'Scopone played to 21: the ace, two and three of denari score their face value.\n' +
      'A side that takes all ten denari in a round wins the match at once.',
  },
  'scopa-quindici': {
    name: 'Scopa a quindici',
    summary: 'Scopa where a capture adds up to 15: the card played and the cards taken together make 15.\n' + 'Scored like scopa; first to 11.',
  },
  'scopa-d-assi': {
    name: "Scopa d'assi",
    summary: 'Scopa where an ace played sweeps the whole table.\n' + 'Scored like scopa; first to 11.',
  },
  're-bello': {
    name: 'Re bello',
    summary: 'Scopa with one more point: the king of denari (re bello), like the settebello.\n' + 'Otherwise scored like scopa; first to 11.',
  },
  escoba: {
    name: 'Escoba',
    summary:
      'The Spanish game: every capture adds up to 15 with the card played; a first table that makes 15 (or twice 15) goes to the dealer.\n' +
      'The most sevens score instead of a primiera; first to 15.',
  },
  cirulla: {
    name: 'Cirulla',
    summary:
      'The Genoese game: take by equal value, by a sum or by 15; an ace sweeps the table; the seven of hearts is wild.\n' +
      'Hands declared for bonuses, the piccola and the grande score extra; first to 51.',
  },
  acchiappaquindici: {
    name: 'Acchiappaquindici',
    summary:
      'Another name of cirulla: take by equal value, by a sum or by 15; an ace sweeps the table; the seven of hearts is wild.\n' +
      'Hands declared for bonuses, the piccola and the grande score extra; first to 51.',
  },
  chkobba: {
    name: 'Chkobba',
    summary: 'The Tunisian game: scopa without the redeal on kings and without a primiera.\n' + 'The most sevens score; first to 21.',
  },
  chkop: {
    name: 'Chkop',
    summary:
      'The Algerian game, for 2, 3, 4 or 6 players: any number of cards by a sum, the fewest cards when there is a choice.\n' +
      'A missing suit counts zero in the primiera; first to 11.',
  },
};
