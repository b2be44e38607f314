import { allCards, cardCode, parseCard } from './cards';

describe('card codes', () => {
  it('parses every one of the 40 codes back to its card', () => {
    for (const card of allCards()) expect(parseCard(cardCode(card))).toBe(card);
  });

  it('refuses anything else, lookalike characters included', () => {
    const bad = [
      '',
      '7',
      '0D',
      '11D',
      '10',
      '1OD',
      '7d',
      '7X',
      'D7',
      ' 7D',
      '7D ',
      '10DD',
      '7\u00c4',
      '7\u0144',
      '10\u00d3',
      '1\u0030S'.replace('0', '\u0660'),
      7,
      null,
      undefined,
      {},
    ];
    for (const code of bad) expect(parseCard(code)).toBe(-1);
  });
});
