/**
 * The profile page (`#/users/<name>`): a player's ratings per pool, the
 * rating chart of one pool with that pool's leaderboard, the head-to-head
 * record against the signed-in user, and the player's finished matches, each
 * opening in the replay viewer.
 */
import { ScopaError } from '@scopa/sdk';
import type { ArchivedMatch, Crosstable, LeaderboardEntry, PoolRating, RatingPoint, UserProfile } from '@scopa/sdk';
import { client, currentSession } from './api';
import { chartSummary, formatRating, ratingChart, resultText } from './chart';
import { h, mount } from './dom';
import type { Child } from './dom';
import { formatDate, formatNumber, t } from './i18n';
import { gameName } from './game-choice';
import { profileSocial } from './social';
import { attempt, playerLink, profileName, showError } from './widgets';

/** Matches per page of the match list. */
export const MATCH_PAGE = 10;
const LEADERBOARD_SIZE = 20;

const rating = formatRating;
const count = formatNumber;
const date = (iso: string) => formatDate(iso, { dateStyle: 'medium' });
const dateTime = (iso: string) => formatDate(iso);
const counted = (key: string, n: number) => t(key, { count: n, n: formatNumber(n) });
const record = (w: number, l: number, d: number) =>
  t('profile:record', { wins: counted('profile:wins', w), losses: counted('profile:losses', l), draws: counted('profile:draws', d) });

/** A pool as people read it: the preset id, or a saved ruleset's id shortened. */
export function poolLabel(id: string): string {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-/i.test(id) ? t('profile:savedRuleset', { id: id.slice(0, 8) }) : id;
}

function replayLink(matchId: string, text = t('profile:replay')): HTMLElement {
  return h('a', { href: `#/replay/${encodeURIComponent(matchId)}`, class: 'replay-link' }, text);
}

/** Why a match ended, in words. */
const REASONS = ['points', 'allDenari', 'resignation', 'forfeit', 'aborted'];
const reasonText = (reason: string) => (REASONS.includes(reason) ? t(`profile:reason.${reason}`) : reason);

/**
 * How a match ended for `who`: won, lost, a draw; the reason and the points,
 * `who`'s side first ("lost 8–11"), then the other sides in their order.
 */
function outcome(m: ArchivedMatch, who: string): string {
  if (!m.result) return t('profile:outcome.none');
  const mine = new Set(m.players.filter((p) => profileName(p.player) === who).map((p) => p.side));
  const verdict =
    m.result.winner === null
      ? t('profile:outcome.draw')
      : mine.size === 0
        ? t('profile:outcome.sideWon', { side: count(m.result.winner) })
        : mine.has(m.result.winner)
          ? t('profile:outcome.won')
          : t('profile:outcome.lost');
  const sides = m.result.totals.map((_t, side) => side);
  const order = [...sides.filter((side) => mine.has(side)), ...sides.filter((side) => !mine.has(side))];
  return t('profile:outcome.line', { verdict, reason: reasonText(m.result.reason), points: order.map((side) => count(m.result!.totals[side])).join('–') });
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
  const lookup = h('input', { id: 'lookup', name: 'lookup', placeholder: t('profile:lookupPlaceholder'), 'aria-label': t('profile:lookupLabel') });

  // ---------------------------------------------------------------- ratings per pool

  const renderRatings = (p: UserProfile) => {
    if (!p.ratings.length) return mount(ratingsBox, h('p', { class: 'muted', id: 'no-ratings' }, t('profile:noRatings')));
    const row = (r: PoolRating) =>
      h(
        'tr',
        { 'data-pool': r.ruleset, class: r.ruleset === pool ? 'selected' : '' },
        h('th', { scope: 'row' }, h('button', { class: 'link', title: t('profile:showPool'), onclick: () => selectPool(r.ruleset) }, poolLabel(r.ruleset))),
        h('td', { class: 'num rating' }, rating(r.rating), r.provisional ? '?' : ''),
        h('td', { class: 'num' }, rating(r.rd)),
        h('td', { class: 'num games' }, count(r.games)),
        h('td', null, r.provisional ? t('profile:provisional') : t('profile:established')),
        h('td', { class: 'num' }, count(r.wins)),
        h('td', { class: 'num' }, count(r.losses)),
        h('td', { class: 'num' }, count(r.draws)),
        h('td', null, date(r.lastRatedAt)),
      );
    mount(
      ratingsBox,
      h(
        'table',
        { class: 'data', id: 'ratings' },
        h('caption', null, t('profile:ratingsCaption')),
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            [
              t('profile:col.pool'),
              t('profile:col.rating'),
              t('profile:col.rd'),
              t('profile:col.games'),
              t('profile:col.status'),
              t('profile:col.wins'),
              t('profile:col.losses'),
              t('profile:col.draws'),
              t('profile:col.lastRated'),
            ].map((c) => h('th', { scope: 'col' }, c)),
          ),
        ),
        h('tbody', null, p.ratings.map(row)),
      ),
    );
  };

  // ---------------------------------------------------------------- chart and leaderboard of one pool

  const renderChart = (points: RatingPoint[]) => {
    if (!points.length) return mount(chartBox, h('p', { class: 'muted', id: 'no-history' }, t('profile:noHistoryInPool', { pool: poolLabel(pool) })));
    mount(
      chartBox,
      h('figure', { class: 'chart' }, ratingChart(poolLabel(pool), points), h('figcaption', { class: 'muted small' }, t('profile:chartLegend'))),
      h(
        'details',
        { class: 'history' },
        h('summary', null, t('profile:asTable')),
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
              ['#', t('profile:col.ended'), t('profile:col.result'), t('profile:col.before'), t('profile:col.after'), t('profile:col.rd'), ''].map((c) =>
                h('th', { scope: 'col' }, c),
              ),
            ),
          ),
          h(
            'tbody',
            null,
            points.map((p, i) =>
              h(
                'tr',
                null,
                h('td', { class: 'num' }, count(i + 1)),
                h('td', null, dateTime(p.time)),
                h('td', null, resultText(p.result)),
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
    const caption = h('caption', null, t('profile:leaderboardCaption', { pool: poolLabel(pool) }));
    if (!rows.length)
      return mount(leaderboardBox, h('p', { class: 'muted', id: 'leaderboard-empty' }, t('profile:leaderboardEmpty', { pool: poolLabel(pool) })));
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
            [t('profile:col.rank'), t('profile:col.player'), t('profile:col.rating'), t('profile:col.rd'), t('profile:col.games')].map((c) =>
              h('th', { scope: 'col' }, c),
            ),
          ),
        ),
        h(
          'tbody',
          null,
          rows.map((r) =>
            h(
              'tr',
              { class: r.username === profile?.username ? 'selected' : '', 'data-player': r.username },
              h('td', { class: 'num' }, count(r.rank)),
              h(
                'th',
                { scope: 'row' },
                playerLink(r.username),
                r.username === profile?.username ? ` ${t('profile:thisPlayer')}` : r.username === me ? ` ${t('profile:you')}` : '',
              ),
              h('td', { class: 'num' }, rating(r.rating)),
              h('td', { class: 'num' }, rating(r.rd)),
              h('td', { class: 'num' }, count(r.games)),
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
    mount(chartBox, h('p', { class: 'muted' }, t('profile:loadingChart')));
    mount(leaderboardBox, h('p', { class: 'muted' }, t('profile:loadingLeaderboard')));
    void (async () => {
      const both = await attempt(() => Promise.all([client.ratingHistory(profile!.username, next), client.leaderboard(next, LEADERBOARD_SIZE)]));
      if (!alive || token !== poolToken || !both) return;
      renderChart(both[0]);
      renderLeaderboard(both[1]);
    })();
  };
  poolSelect.addEventListener('change', () => selectPool(poolSelect.value));

  // ---------------------------------------------------------------- head to head

  const renderH2h = (x: Crosstable) => {
    const them = x.b;
    if (x.wins + x.losses + x.draws === 0) return mount(h2hBox, h('p', { class: 'muted', id: 'h2h-none' }, t('profile:h2hNone', { them })));
    mount(
      h2hBox,
      h(
        'table',
        { class: 'data', id: 'crosstable' },
        h('caption', null, t('profile:h2hCaption', { me: x.a, them })),
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            [t('profile:col.pool'), t('profile:col.yourWins'), t('profile:col.yourLosses'), t('profile:col.draws')].map((c) => h('th', { scope: 'col' }, c)),
          ),
        ),
        h(
          'tbody',
          null,
          x.pools.map((p) =>
            h(
              'tr',
              { 'data-pool': p.ruleset },
              h('th', { scope: 'row' }, poolLabel(p.ruleset)),
              h('td', { class: 'num' }, count(p.wins)),
              h('td', { class: 'num' }, count(p.losses)),
              h('td', { class: 'num' }, count(p.draws)),
            ),
          ),
        ),
        h(
          'tfoot',
          null,
          h(
            'tr',
            { class: 'total' },
            h('th', { scope: 'row' }, t('profile:allPools')),
            h('td', { class: 'num' }, count(x.wins)),
            h('td', { class: 'num' }, count(x.losses)),
            h('td', { class: 'num' }, count(x.draws)),
          ),
        ),
      ),
      h(
        'table',
        { class: 'data', id: 'h2h-matches' },
        h('caption', null, t('profile:h2hMatchesCaption', { them })),
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            [t('profile:col.ended'), t('profile:col.pool'), t('profile:col.yourResult'), t('profile:col.yourRating'), ''].map((c) =>
              h('th', { scope: 'col' }, c),
            ),
          ),
        ),
        h(
          'tbody',
          null,
          x.lastMatches.map((m) =>
            h(
              'tr',
              { 'data-match': m.matchId },
              h('td', null, dateTime(m.endedAt)),
              h('td', null, poolLabel(m.ruleset)),
              h('td', null, resultText(m.result)),
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
      h('td', null, gameName(m.preset), m.rulesetId && m.rulesetId !== m.preset ? h('span', { class: 'muted small' }, ` (${poolLabel(m.rulesetId)})`) : null),
      h(
        'td',
        null,
        [...new Set(m.players.map((p) => p.side))]
          .sort((a, b) => a - b)
          .map((side, i): Child[] => [
            i ? ` ${t('profile:versus')} ` : '',
            m.players
              .filter((p) => p.side === side)
              .map((p, j) => [
                j ? ' & ' : '',
                p.player ? playerLink(profileName(p.player)!, { strong: profileName(p.player) === who, label: p.player }) : t('profile:nobody'),
              ]),
          ]),
      ),
      h('td', { class: 'outcome' }, outcome(m, who)),
      h('td', null, m.rated ? t('profile:rated') : t('profile:unrated'), m.imported ? [', ', t('profile:imported')] : null),
    );

  const renderMatches = () => {
    const who = profile!.username;
    mount(
      matchesBox,
      matches.length
        ? h(
            'table',
            { class: 'data clickable', id: 'match-list' },
            h('caption', null, t('profile:matchesCaption', { who })),
            h(
              'thead',
              null,
              h(
                'tr',
                null,
                [t('profile:col.ended'), t('profile:col.ruleset'), t('profile:col.players'), t('profile:col.resultFor', { who }), t('profile:col.kind')].map(
                  (c) => h('th', { scope: 'col' }, c),
                ),
              ),
            ),
            h(
              'tbody',
              null,
              matches.map((m) => matchRow(m, who)),
            ),
          )
        : h('p', { class: 'muted', id: 'no-matches' }, t('profile:noMatches', { who })),
      next
        ? h(
            'button',
            { id: 'more-matches', onclick: () => void loadMatches(), disabled: loadingMore },
            loadingMore ? t('common:loading') : t('profile:more', { count: MATCH_PAGE, n: count(MATCH_PAGE) }),
          )
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
            { class: 'notice', id: 'matches-unavailable', role: 'status', 'data-code': e.code },
            t('profile:matchesUnavailable', { why: t(`errors:${e.code}`) }),
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
          h(
            'h1',
            null,
            p.username,
            p.bot ? h('span', { class: 'badge' }, t('profile:botBadge')) : null,
            p.username === me ? h('span', { class: 'badge' }, t('profile:youBadge')) : null,
          ),
          p.onVacationUntil
            ? h(
                'p',
                { id: 'profile-vacation', class: 'vacation', 'data-until': p.onVacationUntil },
                t('notifications:profile.onVacation', { date: formatDate(p.onVacationUntil) }),
              )
            : null,
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
            h('button', { type: 'submit' }, t('profile:lookUp')),
          ),
        ),
        h(
          'p',
          { id: 'profile-summary' },
          p.memberSince ? t('profile:memberSince', { date: date(p.memberSince) }) : t('profile:botLevel'),
          ' · ',
          t('profile:ratedRecord', { record: record(p.wins, p.losses, p.draws) }),
        ),
        // Follows, blocks, messages and reports are between accounts: a bot level has none.
        p.bot ? null : profileSocial(p.username),
        h('h2', null, t('profile:ratings')),
        ratingsBox,
        h('div', { class: 'pool-pick' }, h('h2', null, t('profile:chart')), pools.length ? h('label', null, t('profile:pool'), ' ', poolSelect) : null),
        chartBox,
        h(
          'div',
          { class: 'columns' },
          h('div', null, h('h2', null, t('profile:leaderboard')), leaderboardBox),
          h('div', null, h('h2', null, t('profile:headToHead')), h2hBox),
        ),
        h('h2', null, t('profile:matches')),
        matchesBox,
      ),
    );
    renderRatings(p);
    if (pools.length) {
      poolSelect.replaceChildren(...pools.map((id) => h('option', { value: id }, poolLabel(id))));
      selectPool(pools[0]);
    } else {
      mount(chartBox, h('p', { class: 'muted', id: 'no-history' }, t('profile:noHistory')));
      mount(leaderboardBox, h('p', { class: 'muted', id: 'leaderboard-unrated' }, t('profile:leaderboardUnrated')));
    }
    if (!me || me === p.username) {
      mount(h2hBox, h('p', { class: 'muted', id: 'h2h-self' }, t('profile:h2hSelf')));
    } else {
      mount(h2hBox, h('p', { class: 'muted' }, t('common:loading')));
      void attempt(() => client.crosstable(me, p.username)).then((t) => alive && t && renderH2h(t));
    }
    mount(matchesBox, h('p', { class: 'muted' }, t('profile:loadingMatches')));
    void loadMatches();
  };

  mount(root, h('section', { class: 'panel' }, h('h1', null, requested), h('p', { class: 'muted' }, t('profile:loading'))));
  void (async () => {
    const p = await attempt(() => client.user(requested));
    if (!alive) return;
    if (!p)
      return mount(
        root,
        h('section', { class: 'panel' }, h('h1', null, requested), h('p', { id: 'profile-missing' }, t('profile:missing', { username: requested }))),
      );
    profile = p;
    render(p);
  })();

  return () => {
    alive = false;
  };
}
