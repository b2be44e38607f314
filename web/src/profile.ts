/**
 * The profile page (`#/users/<name>`): a player's ratings per pool, the
 * rating chart of one pool with that pool's leaderboard, the head-to-head
 * record against the signed-in user, and the player's finished matches, each
 * opening in the replay viewer.
 */
import { ScopaError } from '@scopa/sdk';
import type { ArchivedMatch, Crosstable, LeaderboardEntry, PoolRating, RatingPoint, UserProfile } from '@scopa/sdk';
import { client, currentSession } from './api';
import { chartSummary, ratingChart } from './chart';
import { h, mount } from './dom';
import type { Child } from './dom';
import { profileSocial } from './social';
import { attempt, playerLink, profileName, showError } from './widgets';

/** Matches per page of the match list. */
export const MATCH_PAGE = 10;
const LEADERBOARD_SIZE = 20;

const rating = (r: number) => String(Math.round(r));
const date = (iso: string) => new Date(iso).toLocaleDateString();
const dateTime = (iso: string) => new Date(iso).toLocaleString();
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : word.endsWith('s') ? 'es' : 's'}`;
const record = (w: number, l: number, d: number) => `${plural(w, 'win')}, ${plural(l, 'loss')}, ${plural(d, 'draw')}`;

/** A pool as people read it: the preset id, or a saved ruleset's id shortened. */
export function poolLabel(id: string): string {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-/i.test(id) ? `saved ruleset ${id.slice(0, 8)}` : id;
}

function replayLink(matchId: string, text = 'Replay'): HTMLElement {
  return h('a', { href: `#/replay/${encodeURIComponent(matchId)}`, class: 'replay-link' }, text);
}

/**
 * How a match ended for `who`: won, lost, a draw; the reason and the points,
 * `who`'s side first ("lost 8–11"), then the other sides in their order.
 */
function outcome(m: ArchivedMatch, who: string): string {
  if (!m.result) return 'no result';
  const mine = new Set(m.players.filter((p) => profileName(p.player) === who).map((p) => p.side));
  const verdict = m.result.winner === null ? 'draw' : mine.size === 0 ? `side ${m.result.winner} won` : mine.has(m.result.winner) ? 'won' : 'lost';
  const sides = m.result.totals.map((_t, side) => side);
  const order = [...sides.filter((side) => mine.has(side)), ...sides.filter((side) => !mine.has(side))];
  return `${verdict} (${m.result.reason}), ${order.map((side) => m.result!.totals[side]).join('–')}`;
}

export function profileScreen(root: HTMLElement, requested: string): () => void {
  const me = currentSession()?.username ?? null;
  let alive = true;
  let profile: UserProfile | null = null;
  let pool = '';
  /** Bumped on every pool change, so that an older answer is dropped. */
  let poolToken = 0;

  const ratingsBox = h('div', { id: 'ratings-box' });
  const poolSelect = h('select', { id: 'pool', name: 'pool' });
  const chartBox = h('div', { id: 'chart-box', 'aria-live': 'polite' });
  const leaderboardBox = h('div', { id: 'leaderboard-box' });
  const h2hBox = h('div', { id: 'h2h-box' });
  const matchesBox = h('div', { id: 'matches-box' });
  const lookup = h('input', { id: 'lookup', name: 'lookup', placeholder: 'username or bot:greedy', 'aria-label': 'player to look up' });

  // ---------------------------------------------------------------- ratings per pool

  const renderRatings = (p: UserProfile) => {
    if (!p.ratings.length) return mount(ratingsBox, h('p', { class: 'muted', id: 'no-ratings' }, 'No rated matches yet.'));
    const row = (r: PoolRating) =>
      h(
        'tr',
        { 'data-pool': r.ruleset, class: r.ruleset === pool ? 'selected' : '' },
        h('th', { scope: 'row' }, h('button', { class: 'link', title: 'show this pool', onclick: () => selectPool(r.ruleset) }, poolLabel(r.ruleset))),
        h('td', { class: 'num rating' }, rating(r.rating), r.provisional ? '?' : ''),
        h('td', { class: 'num' }, rating(r.rd)),
        h('td', { class: 'num games' }, String(r.games)),
        h('td', null, r.provisional ? 'provisional' : 'established'),
        h('td', { class: 'num' }, String(r.wins)),
        h('td', { class: 'num' }, String(r.losses)),
        h('td', { class: 'num' }, String(r.draws)),
        h('td', null, date(r.lastRatedAt)),
      );
    mount(
      ratingsBox,
      h(
        'table',
        { class: 'data', id: 'ratings' },
        h('caption', null, 'Glicko-2 rating per pool (a "?" marks a provisional rating: RD above 110)'),
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            ['Pool', 'Rating', 'RD', 'Games', 'Status', 'Wins', 'Losses', 'Draws', 'Last rated'].map((t) => h('th', { scope: 'col' }, t)),
          ),
        ),
        h('tbody', null, p.ratings.map(row)),
      ),
    );
  };

  // ---------------------------------------------------------------- chart and leaderboard of one pool

  const renderChart = (points: RatingPoint[]) => {
    if (!points.length) return mount(chartBox, h('p', { class: 'muted', id: 'no-history' }, `No rated matches in ${poolLabel(pool)} yet.`));
    mount(
      chartBox,
      h(
        'figure',
        { class: 'chart' },
        ratingChart(poolLabel(pool), points),
        h('figcaption', { class: 'muted small' }, '● a win · ○ a loss · ■ a draw; the band is rating ± RD'),
      ),
      h(
        'details',
        { class: 'history' },
        h('summary', null, 'The same as a table'),
        h(
          'table',
          { class: 'data', id: 'history' },
          h('caption', null, chartSummary(poolLabel(pool), points)),
          h(
            'thead',
            null,
            h(
              'tr',
              null,
              ['#', 'Ended', 'Result', 'Before', 'After', 'RD', ''].map((t) => h('th', { scope: 'col' }, t)),
            ),
          ),
          h(
            'tbody',
            null,
            points.map((p, i) =>
              h(
                'tr',
                null,
                h('td', { class: 'num' }, String(i + 1)),
                h('td', null, dateTime(p.time)),
                h('td', null, p.result),
                h('td', { class: 'num' }, rating(p.ratingBefore)),
                h('td', { class: 'num' }, rating(p.rating)),
                h('td', { class: 'num' }, rating(p.rd)),
                h('td', null, replayLink(p.matchId)),
              ),
            ),
          ),
        ),
      ),
    );
  };

  const renderLeaderboard = (rows: LeaderboardEntry[]) => {
    const caption = h('caption', null, `Leaderboard of ${poolLabel(pool)}: established ratings (RD at most 110)`);
    if (!rows.length) return mount(leaderboardBox, h('p', { class: 'muted', id: 'leaderboard-empty' }, `No established ratings in ${poolLabel(pool)} yet.`));
    mount(
      leaderboardBox,
      h(
        'table',
        { class: 'data', id: 'leaderboard' },
        caption,
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            ['Rank', 'Player', 'Rating', 'RD', 'Games'].map((t) => h('th', { scope: 'col' }, t)),
          ),
        ),
        h(
          'tbody',
          null,
          rows.map((r) =>
            h(
              'tr',
              { class: r.username === profile?.username ? 'selected' : '', 'data-player': r.username },
              h('td', { class: 'num' }, String(r.rank)),
              h('th', { scope: 'row' }, playerLink(r.username), r.username === profile?.username ? ' (this player)' : r.username === me ? ' (you)' : ''),
              h('td', { class: 'num' }, rating(r.rating)),
              h('td', { class: 'num' }, rating(r.rd)),
              h('td', { class: 'num' }, String(r.games)),
            ),
          ),
        ),
      ),
    );
  };

  const selectPool = (next: string) => {
    pool = next;
    poolSelect.value = next;
    if (profile) renderRatings(profile);
    const token = ++poolToken;
    mount(chartBox, h('p', { class: 'muted' }, 'Loading the chart…'));
    mount(leaderboardBox, h('p', { class: 'muted' }, 'Loading the leaderboard…'));
    void (async () => {
      const both = await attempt(() => Promise.all([client.ratingHistory(profile!.username, next), client.leaderboard(next, LEADERBOARD_SIZE)]));
      if (!alive || token !== poolToken || !both) return;
      renderChart(both[0]);
      renderLeaderboard(both[1]);
    })();
  };
  poolSelect.addEventListener('change', () => selectPool(poolSelect.value));

  // ---------------------------------------------------------------- head to head

  const renderH2h = (t: Crosstable) => {
    const them = t.b;
    if (t.wins + t.losses + t.draws === 0) return mount(h2hBox, h('p', { class: 'muted', id: 'h2h-none' }, `No rated matches between you and ${them} yet.`));
    mount(
      h2hBox,
      h(
        'table',
        { class: 'data', id: 'crosstable' },
        h('caption', null, `You (${t.a}) against ${them} in rated matches`),
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            ['Pool', 'Your wins', 'Your losses', 'Draws'].map((x) => h('th', { scope: 'col' }, x)),
          ),
        ),
        h(
          'tbody',
          null,
          t.pools.map((p) =>
            h(
              'tr',
              { 'data-pool': p.ruleset },
              h('th', { scope: 'row' }, poolLabel(p.ruleset)),
              h('td', { class: 'num' }, String(p.wins)),
              h('td', { class: 'num' }, String(p.losses)),
              h('td', { class: 'num' }, String(p.draws)),
            ),
          ),
        ),
        h(
          'tfoot',
          null,
          h(
            'tr',
            { class: 'total' },
            h('th', { scope: 'row' }, 'All pools'),
            h('td', { class: 'num' }, String(t.wins)),
            h('td', { class: 'num' }, String(t.losses)),
            h('td', { class: 'num' }, String(t.draws)),
          ),
        ),
      ),
      h(
        'table',
        { class: 'data', id: 'h2h-matches' },
        h('caption', null, `Your last rated matches against ${them}, newest first`),
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            ['Ended', 'Pool', 'Your result', 'Your rating', ''].map((x) => h('th', { scope: 'col' }, x)),
          ),
        ),
        h(
          'tbody',
          null,
          t.lastMatches.map((m) =>
            h(
              'tr',
              { 'data-match': m.matchId },
              h('td', null, dateTime(m.endedAt)),
              h('td', null, poolLabel(m.ruleset)),
              h('td', null, m.result),
              h('td', { class: 'num' }, `${rating(m.ratingBefore)} → ${rating(m.ratingAfter)}`),
              h('td', null, replayLink(m.matchId)),
            ),
          ),
        ),
      ),
    );
  };

  // ---------------------------------------------------------------- match list

  let matches: ArchivedMatch[] = [];
  let next: string | null = null;
  let loadingMore = false;

  const matchRow = (m: ArchivedMatch, who: string) =>
    h(
      'tr',
      {
        class: 'match-row',
        'data-match': m.id,
        // The whole row opens the replay; the link in it is the keyboard's way.
        onclick: (ev: Event) => {
          if (!(ev.target as HTMLElement).closest('a')) location.hash = `#/replay/${encodeURIComponent(m.id)}`;
        },
      },
      h('td', null, replayLink(m.id, m.endedAt ? dateTime(m.endedAt) : dateTime(m.createdAt))),
      h('td', null, m.preset, m.rulesetId && m.rulesetId !== m.preset ? h('span', { class: 'muted small' }, ` (${poolLabel(m.rulesetId)})`) : null),
      h(
        'td',
        null,
        [...new Set(m.players.map((p) => p.side))]
          .sort((a, b) => a - b)
          .map((side, i): Child[] => [
            i ? ' vs ' : '',
            m.players
              .filter((p) => p.side === side)
              .map((p, j) => [
                j ? ' & ' : '',
                p.player ? playerLink(profileName(p.player)!, { strong: profileName(p.player) === who, label: p.player }) : 'nobody',
              ]),
          ]),
      ),
      h('td', { class: 'outcome' }, outcome(m, who)),
      h('td', null, [m.rated ? 'rated' : 'unrated', m.imported ? ', imported' : ''].join('')),
    );

  const renderMatches = () => {
    const who = profile!.username;
    mount(
      matchesBox,
      matches.length
        ? h(
            'table',
            { class: 'data clickable', id: 'match-list' },
            h('caption', null, `Finished matches of ${who}, newest first (click one to replay it)`),
            h(
              'thead',
              null,
              h(
                'tr',
                null,
                ['Ended', 'Ruleset', 'Players', `Result for ${who}`, 'Kind'].map((t) => h('th', { scope: 'col' }, t)),
              ),
            ),
            h(
              'tbody',
              null,
              matches.map((m) => matchRow(m, who)),
            ),
          )
        : h('p', { class: 'muted', id: 'no-matches' }, 'No finished matches yet.'),
      next
        ? h('button', { id: 'more-matches', onclick: () => void loadMatches(), disabled: loadingMore }, loadingMore ? 'Loading…' : `More (${MATCH_PAGE} older)`)
        : null,
    );
  };

  const loadMatches = async () => {
    const first = matches.length === 0;
    loadingMore = true;
    if (!first) renderMatches();
    try {
      const page = await client.userMatches(profile!.username, first || !next ? { max: MATCH_PAGE } : { max: MATCH_PAGE, after: next });
      if (!alive) return;
      matches = [...matches, ...page.matches];
      next = page.next;
    } catch (err) {
      if (!alive) return;
      if (first) {
        // The archive endpoint may be missing or refuse: the rest of the page still works.
        const e = err instanceof ScopaError ? err : new ScopaError({ code: 'CLIENT', message: String(err), status: 0 });
        loadingMore = false;
        return mount(
          matchesBox,
          h(
            'p',
            { class: 'notice', id: 'matches-unavailable', role: 'status' },
            'Match list unavailable: ',
            h('span', { class: 'mono' }, e.code),
            ` ${e.message}`,
          ),
        );
      }
      showError(err);
    }
    loadingMore = false;
    renderMatches();
  };

  // ---------------------------------------------------------------- the page

  const render = (p: UserProfile) => {
    const pools = [...new Set([...p.ratings].sort((a, b) => b.games - a.games).map((r) => r.ruleset))];
    mount(
      root,
      h(
        'section',
        { class: 'panel profile', id: 'profile', 'data-user': p.username },
        h(
          'header',
          { class: 'profile-head' },
          h('h1', null, p.username, p.bot ? h('span', { class: 'badge' }, 'bot level') : null, p.username === me ? h('span', { class: 'badge' }, 'you') : null),
          h(
            'form',
            {
              class: 'lookup',
              onsubmit: (ev: Event) => (
                ev.preventDefault(),
                lookup.value.trim() && (location.hash = `#/users/${encodeURIComponent(lookup.value.trim().toLowerCase())}`)
              ),
            },
            lookup,
            h('button', { type: 'submit' }, 'Look up'),
          ),
        ),
        h(
          'p',
          { id: 'profile-summary' },
          p.memberSince ? `Member since ${date(p.memberSince)}` : 'A bot level, rated as a player',
          ` · rated matches: ${record(p.wins, p.losses, p.draws)}`,
        ),
        // Follows, blocks, messages and reports are between accounts: a bot level has none.
        p.bot ? null : profileSocial(p.username),
        h('h2', null, 'Ratings'),
        ratingsBox,
        h('div', { class: 'pool-pick' }, h('h2', null, 'Rating chart'), pools.length ? h('label', null, 'Pool ', poolSelect) : null),
        chartBox,
        h('div', { class: 'columns' }, h('div', null, h('h2', null, 'Leaderboard'), leaderboardBox), h('div', null, h('h2', null, 'Head to head'), h2hBox)),
        h('h2', null, 'Matches'),
        matchesBox,
      ),
    );
    renderRatings(p);
    if (pools.length) {
      poolSelect.replaceChildren(...pools.map((id) => h('option', { value: id }, poolLabel(id))));
      selectPool(pools[0]);
    } else {
      mount(chartBox, h('p', { class: 'muted', id: 'no-history' }, 'No rated matches yet: the chart starts with the first one.'));
      mount(leaderboardBox, h('p', { class: 'muted' }, 'The leaderboard of a pool shows once this player is rated in it.'));
    }
    if (!me || me === p.username) {
      mount(h2hBox, h('p', { class: 'muted', id: 'h2h-self' }, "This is your profile: open another player's to see your record against them."));
    } else {
      mount(h2hBox, h('p', { class: 'muted' }, 'Loading…'));
      void attempt(() => client.crosstable(me, p.username)).then((t) => alive && t && renderH2h(t));
    }
    mount(matchesBox, h('p', { class: 'muted' }, 'Loading the matches…'));
    void loadMatches();
  };

  mount(root, h('section', { class: 'panel' }, h('h1', null, requested), h('p', { class: 'muted' }, 'Loading the profile…')));
  void (async () => {
    const p = await attempt(() => client.user(requested));
    if (!alive) return;
    if (!p) return mount(root, h('section', { class: 'panel' }, h('h1', null, requested), h('p', { id: 'profile-missing' }, `No profile for ${requested}.`)));
    profile = p;
    render(p);
  })();

  return () => {
    alive = false;
  };
}
