/** Exports as a forger (or another service) writes them, for the suites that import them. */
import { parseJsonl, writeExport } from '../../src/match-formats/export';
import type { ExportFields, ExportHeader, ExportLine, ExportSigner } from '../../src/match-formats/export';

/**
 * The export with `change` applied to its header and lines, its chain (times
 * included) and lastHash recomputed for `matchId`, signed by `signer` or
 * unsigned.
 */
export function reissue(
  text: string,
  opts: { matchId?: string; signer?: ExportSigner | null; change?: (h: ExportHeader, lines: ExportLine[]) => void },
): string {
  const { header, events } = parseJsonl(text);
  opts.change?.(header, events);
  const { format: _f, events: _n, lastHash: _l, issuer: _i, keyId: _k, signature: _s, ...fields } = header;
  const matchId = opts.matchId ?? header.matchId;
  const stored = events.map((l) => ({ ...l, matchId, time: new Date(l.time) }));
  return writeExport({ ...(fields as ExportFields), matchId }, stored, opts.signer ?? null);
}
