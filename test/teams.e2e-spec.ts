/**
 * Teams over the public API on PGlite (docs/social.md "Teams"): the whole
 * life of an open team over REST and of a team by request over GraphQL
 * (create, search, join, requests accepted and declined, kicks, leaders
 * appointed, the last leader's leaving refused, the member list with
 * ratings, dissolution), every refusal with its code, the scope
 * `team:write`, the per-account bound, and team-only tournaments.
 */
import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { ScopaClient, ScopaError } from '@scopa/sdk';
import { createTestApp, listenOnLoopback } from './support/app';
import { errorCode, gql, gqlOk, register, uniqueName } from './support/clients';
import type { Account } from './support/clients';
import { PrismaService } from '../src/database/prisma.service';
import { TeamsService, TEAMS_PER_ACCOUNT } from '../src/teams/teams.service';
import { auditTournament } from '../src/tournaments/tournament-audit';

jest.setTimeout(120_000);

const TEAM_FIELDS = 'id name description open createdBy memberCount leaders myRole requestPending';

describe('teams (e2e, PGlite)', () => {
  let app: INestApplication;
  let base: string;
  const http = () => request(app.getHttpServer());
  const bearer = (a: Account | string) => `Bearer ${typeof a === 'string' ? a : a.token}`;

  /** A REST call and its [status, body]. */
  const call = async (method: 'get' | 'post', who: Account | string, path: string, body: Record<string, unknown> = {}) => {
    const req = method === 'get' ? http().get(path) : http().post(path).send(body);
    const res = await req.set('authorization', bearer(who));
    return { status: res.status, body: res.body };
  };
  const ok = async (method: 'get' | 'post', who: Account | string, path: string, body: Record<string, unknown> = {}, status = 200) => {
    const res = await call(method, who, path, body);
    if (res.status !== status) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const refused = async (method: 'get' | 'post', who: Account | string, path: string, body: Record<string, unknown> = {}) => {
    const res = await call(method, who, path, body);
    return [res.status, res.body.code];
  };
  const teamName = (prefix: string) => `${prefix} ${uniqueName('t')}`;

  beforeAll(async () => {
    app = await createTestApp({ CLIENT_SEED_WINDOW: '0' });
    base = (await listenOnLoopback(app)).http;
  });
  afterAll(async () => {
    await app.close();
  });

  it('an open team over REST: created, searched, joined (twice: no change), led, left by its last leader only after an appointment, dissolved', async () => {
    const [alice, bob, carol] = [await register(app, 'ta'), await register(app, 'tb'), await register(app, 'tc')];
    const name = teamName('Circolo Scopa');
    const team = await ok('post', alice, '/v1/teams', { name: `  ${name}  `, description: 'We play on Thursdays.\nAll welcome.' }, 201);
    expect(team).toMatchObject({
      name,
      description: 'We play on Thursdays.\nAll welcome.',
      open: true,
      createdBy: alice.username,
      memberCount: 1,
      leaders: [alice.username],
      myRole: 'leader',
      requestPending: false,
    });
    // unique without regard to case (and inner whitespace): nothing is created
    expect(await refused('post', bob, '/v1/teams', { name: name.toUpperCase().replace(' ', '   ') })).toEqual([409, 'CONFLICT']);
    expect(await refused('post', bob, '/v1/teams', { name: 'x' })).toEqual([400, 'VALIDATION_FAILED']);
    expect(await refused('post', bob, '/v1/teams', { name: 'ab\u0007cd' })).toEqual([400, 'VALIDATION_FAILED']);

    // search by a part of the name, in any case; the caller's role in each
    const found = await ok('get', bob, `/v1/teams?q=${encodeURIComponent(name.slice(8).toUpperCase())}`);
    expect(found.items.map((t: { id: string }) => t.id)).toEqual([team.id]);
    expect(found.items[0]).toMatchObject({ myRole: null, memberCount: 1 });

    // join: at once; again: nothing changes
    expect(await ok('post', bob, `/v1/teams/${team.id}/join`)).toMatchObject({ myRole: 'member', memberCount: 2, requestPending: false });
    expect(await ok('post', bob, `/v1/teams/${team.id}/join`)).toMatchObject({ myRole: 'member', memberCount: 2 });
    expect(await ok('post', carol, `/v1/teams/${team.id}/join`)).toMatchObject({ myRole: 'member', memberCount: 3 });
    expect(await ok('get', carol, `/v1/teams/${team.id}`)).toMatchObject({ memberCount: 3, leaders: [alice.username], myRole: 'member' });

    // only leaders accept, decline, kick, appoint and see the requests
    for (const path of [`kick/${carol.username}`, `leaders/${carol.username}`, `requests/${carol.username}/accept`, `requests/${carol.username}/decline`]) {
      expect(await refused('post', bob, `/v1/teams/${team.id}/${path}`)).toEqual([403, 'FORBIDDEN']);
    }
    expect(await refused('get', bob, `/v1/teams/${team.id}/requests`)).toEqual([403, 'FORBIDDEN']);
    expect((await ok('get', alice, `/v1/teams/${team.id}`)).memberCount).toBe(3);

    // the last leader cannot leave while others remain
    const last = await call('post', alice, `/v1/teams/${team.id}/leave`);
    expect(last.status).toBe(409);
    expect(last.body).toMatchObject({ code: 'CONFLICT' });
    expect(last.body.detail).toContain('last leader');
    expect(last.body.detail).toContain('appoint');
    expect((await ok('get', alice, `/v1/teams/${team.id}`)).myRole).toBe('leader');

    // appoint (again: no change), then leave
    expect((await ok('post', alice, `/v1/teams/${team.id}/leaders/${bob.username}`)).leaders).toEqual([alice.username, bob.username].sort());
    expect((await ok('post', alice, `/v1/teams/${team.id}/leaders/${bob.username}`)).leaders).toEqual([alice.username, bob.username].sort());
    expect(await refused('post', alice, `/v1/teams/${team.id}/leaders/nobody-here`)).toEqual([404, 'NOT_FOUND']);
    expect(await ok('post', alice, `/v1/teams/${team.id}/leave`)).toMatchObject({ myRole: null, memberCount: 2, leaders: [bob.username] });
    // leaving again: nothing changes
    expect(await ok('post', alice, `/v1/teams/${team.id}/leave`)).toMatchObject({ myRole: null, memberCount: 2 });

    // the member list, by username, with ratings as on the profile
    const prisma = app.get(PrismaService);
    await prisma.rating.create({
      data: { pool: 'scopa', player: carol.username, rating: 1612.5, rd: 80, volatility: 0.06, games: 12, wins: 7, losses: 5, lastRatedAt: new Date() },
    });
    const members = await ok('get', alice, `/v1/teams/${team.id}/members`);
    expect(members.nextCursor).toBeNull();
    expect(members.items.map((m: { username: string; role: string }) => [m.username, m.role])).toEqual(
      [
        [bob.username, 'leader'],
        [carol.username, 'member'],
      ].sort(),
    );
    const carolLine = members.items.find((m: { username: string }) => m.username === carol.username);
    expect(carolLine.ratings).toEqual([expect.objectContaining({ ruleset: 'scopa', rating: 1612.5, rd: 80, games: 12, provisional: false, wins: 7 })]);
    expect(members.items.find((m: { username: string }) => m.username === bob.username).ratings).toEqual([]);
    const profile = await ok('get', alice, `/v1/users/${carol.username}`);
    expect(profile.ratings[0]).toMatchObject({ ruleset: carolLine.ratings[0].ruleset, rating: carolLine.ratings[0].rating });
    const page1 = await ok('get', alice, `/v1/teams/${team.id}/members?first=1`);
    expect(page1.items).toHaveLength(1);
    const page2 = await ok('get', alice, `/v1/teams/${team.id}/members?first=1&after=${page1.nextCursor}`);
    expect([page1.items[0].username, page2.items[0].username]).toEqual(members.items.map((m: { username: string }) => m.username));
    expect(page2.nextCursor).toBeNull();
    expect(await refused('get', alice, `/v1/teams/${team.id}/members?after=garbage`)).toEqual([400, 'VALIDATION_FAILED']);

    // kicks: a leader kicks a member; the kicked player's next join is a request, even to an open team
    expect(await refused('post', bob, `/v1/teams/${team.id}/kick/${bob.username}`)).toEqual([409, 'CONFLICT']);
    expect(await refused('post', bob, `/v1/teams/${team.id}/kick/${alice.username}`)).toEqual([404, 'NOT_FOUND']);
    expect(await ok('post', bob, `/v1/teams/${team.id}/kick/${carol.username}`)).toMatchObject({ memberCount: 1 });
    expect(await ok('post', carol, `/v1/teams/${team.id}/join`)).toMatchObject({ myRole: null, requestPending: true, memberCount: 1 });
    expect((await ok('get', bob, `/v1/teams/${team.id}/requests`)).items.map((r: { username: string }) => r.username)).toEqual([carol.username]);
    expect(await ok('post', bob, `/v1/teams/${team.id}/requests/${carol.username}/accept`)).toMatchObject({ memberCount: 2 });
    expect((await ok('get', carol, `/v1/teams/${team.id}`)).myRole).toBe('member');
    expect(await refused('post', bob, `/v1/teams/${team.id}/requests/${carol.username}/accept`)).toEqual([404, 'NOT_FOUND']);

    // leaders are peers: a leader kicks another leader
    await ok('post', bob, `/v1/teams/${team.id}/leaders/${carol.username}`);
    expect(await ok('post', carol, `/v1/teams/${team.id}/kick/${bob.username}`)).toMatchObject({ memberCount: 1, leaders: [carol.username] });

    // the last member leaves: the team is dissolved and its name is free again
    expect(await ok('post', carol, `/v1/teams/${team.id}/leave`)).toMatchObject({ memberCount: 0, myRole: null });
    expect(await refused('get', carol, `/v1/teams/${team.id}`)).toEqual([404, 'NOT_FOUND']);
    expect(await refused('post', bob, `/v1/teams/${team.id}/join`)).toEqual([404, 'NOT_FOUND']);
    expect((await ok('post', bob, '/v1/teams', { name: name.toLowerCase() }, 201)).leaders).toEqual([bob.username]);

    // unknown ids
    expect(await refused('get', bob, '/v1/teams/not-a-uuid')).toEqual([404, 'NOT_FOUND']);
    expect(await refused('get', bob, '/v1/teams/00000000-0000-4000-8000-000000000000/members')).toEqual([404, 'NOT_FOUND']);
  });

  it('a team by request over GraphQL: requests listed to leaders, declined, asked again, accepted; kicks and appointments; search in cursor pages', async () => {
    const [lead, dave, erin] = [await register(app, 'gl'), await register(app, 'gd'), await register(app, 'ge')];
    const name = teamName('Briscola e Scopa');
    const created = (
      await gqlOk(app, lead.token, `mutation($input: CreateTeamInput!) { createTeam(input: $input) { ${TEAM_FIELDS} } }`, {
        input: { name, description: 'Ask to join', open: false },
      })
    ).createTeam;
    expect(created).toMatchObject({ name, open: false, memberCount: 1, leaders: [lead.username], myRole: 'leader', requestPending: false });
    const id = created.id;
    const dup = await gql(app, dave.token, `mutation { createTeam(input: { name: ${JSON.stringify(name.toLowerCase())} }) { id } }`);
    expect(errorCode(dup)).toBe('CONFLICT');

    const join = `mutation($id: ID!) { joinTeam(id: $id) { ${TEAM_FIELDS} } }`;
    expect((await gqlOk(app, dave.token, join, { id })).joinTeam).toMatchObject({ myRole: null, requestPending: true, memberCount: 1 });
    expect((await gqlOk(app, dave.token, join, { id })).joinTeam).toMatchObject({ requestPending: true, memberCount: 1 });
    expect((await gqlOk(app, erin.token, join, { id })).joinTeam).toMatchObject({ requestPending: true });

    const requests = `query($id: ID!, $first: Int, $after: String) { teamRequests(id: $id, first: $first, after: $after) { items { username requestedAt } nextCursor } }`;
    const firstPage = (await gqlOk(app, lead.token, requests, { id, first: 1 })).teamRequests;
    expect(firstPage.items.map((r: { username: string }) => r.username)).toEqual([dave.username]);
    const secondPage = (await gqlOk(app, lead.token, requests, { id, first: 1, after: firstPage.nextCursor })).teamRequests;
    expect(secondPage).toEqual({ items: [expect.objectContaining({ username: erin.username })], nextCursor: null });
    expect(errorCode(await gql(app, dave.token, requests, { id }))).toBe('FORBIDDEN');

    const decline = `mutation($id: ID!, $u: String!) { declineTeamRequest(id: $id, username: $u) { memberCount } }`;
    const accept = `mutation($id: ID!, $u: String!) { acceptTeamRequest(id: $id, username: $u) { memberCount leaders } }`;
    expect(errorCode(await gql(app, erin.token, accept, { id, u: dave.username }))).toBe('FORBIDDEN');
    expect((await gqlOk(app, lead.token, decline, { id, u: dave.username })).declineTeamRequest).toEqual({ memberCount: 1 });
    expect(errorCode(await gql(app, lead.token, decline, { id, u: dave.username }))).toBe('NOT_FOUND');
    // declined: may ask again
    expect((await gqlOk(app, dave.token, join, { id })).joinTeam).toMatchObject({ requestPending: true });
    expect((await gqlOk(app, lead.token, accept, { id, u: dave.username.toUpperCase() })).acceptTeamRequest).toEqual({
      memberCount: 2,
      leaders: [lead.username],
    });
    expect((await gqlOk(app, lead.token, accept, { id, u: erin.username })).acceptTeamRequest.memberCount).toBe(3);
    // both answered: no request pending
    expect((await gqlOk(app, lead.token, requests, { id })).teamRequests.items).toEqual([]);

    const team = `query($id: ID!) { team(id: $id) { ${TEAM_FIELDS} } }`;
    expect((await gqlOk(app, dave.token, team, { id })).team).toMatchObject({ myRole: 'member', memberCount: 3 });
    const members = `query($id: ID!) { teamMembers(id: $id) { items { username role joinedAt ratings { ruleset rating provisional } } nextCursor } }`;
    const listed = (await gqlOk(app, dave.token, members, { id })).teamMembers;
    expect(listed.items.map((m: { username: string; role: string }) => [m.username, m.role])).toEqual(
      [
        [lead.username, 'leader'],
        [dave.username, 'member'],
        [erin.username, 'member'],
      ].sort((a, b) => a[0].localeCompare(b[0])),
    );

    const leave = `mutation($id: ID!) { leaveTeam(id: $id) { myRole memberCount } }`;
    const refusedLeave = await gql(app, lead.token, leave, { id });
    expect(errorCode(refusedLeave)).toBe('CONFLICT');
    expect(refusedLeave.errors![0].message).toContain('last leader');

    const appoint = `mutation($id: ID!, $u: String!) { appointTeamLeader(id: $id, username: $u) { leaders } }`;
    const kick = `mutation($id: ID!, $u: String!) { kickTeamMember(id: $id, username: $u) { memberCount } }`;
    expect(errorCode(await gql(app, dave.token, kick, { id, u: erin.username }))).toBe('FORBIDDEN');
    expect((await gqlOk(app, lead.token, appoint, { id, u: dave.username })).appointTeamLeader.leaders).toEqual([lead.username, dave.username].sort());
    expect((await gqlOk(app, dave.token, kick, { id, u: erin.username })).kickTeamMember).toEqual({ memberCount: 2 });
    // kicked from a team by request: asks again like anyone
    expect((await gqlOk(app, erin.token, join, { id })).joinTeam).toMatchObject({ requestPending: true, myRole: null });
    // a pending request withdrawn by leaving
    expect((await gqlOk(app, erin.token, leave, { id })).leaveTeam).toEqual({ myRole: null, memberCount: 2 });
    expect((await gqlOk(app, erin.token, team, { id })).team.requestPending).toBe(false);
    expect((await gqlOk(app, lead.token, leave, { id })).leaveTeam).toEqual({ myRole: null, memberCount: 1 });

    // search: by part of the name, in cursor pages
    const prefix = uniqueName('Zq');
    for (const n of [2, 1, 3]) await gqlOk(app, erin.token, `mutation { createTeam(input: { name: "${prefix} ${n}" }) { id } }`);
    const search = `query($q: String, $first: Int, $after: String) { teams(q: $q, first: $first, after: $after) { items { name myRole } nextCursor } }`;
    const names: string[] = [];
    let after: string | null = null;
    for (let i = 0; i < 5; i++) {
      const p: { items: { name: string; myRole: string }[]; nextCursor: string | null } = (
        await gqlOk(app, dave.token, search, { q: prefix.toLowerCase(), first: 2, after })
      ).teams;
      names.push(...p.items.map((t) => t.name));
      expect(p.items.every((t) => t.myRole === null)).toBe(true);
      after = p.nextCursor;
      if (!after) break;
    }
    expect(names).toEqual([`${prefix} 1`, `${prefix} 2`, `${prefix} 3`]);
    expect(errorCode(await gql(app, dave.token, search, { q: 'x'.repeat(41) }))).toBe('VALIDATION_FAILED');
    expect(errorCode(await gql(app, dave.token, team, { id: 'nope' }))).toBe('NOT_FOUND');
  });

  it('writes need the scope team:write (an API token without it is refused, nothing changes); reads need profile:read', async () => {
    const owner = await register(app, 'sc');
    const mk = async (scopes: string[]) => (await ok('post', owner, '/v1/tokens', { name: scopes.join('+'), scopes }, 201)).token as string;
    const readOnly = await mk(['profile:read', 'match:read']);
    const writer = await mk(['team:write']);
    const name = teamName('Scoped');

    const denied = await call('post', readOnly, '/v1/teams', { name });
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ code: 'FORBIDDEN', requiredScope: 'team:write' });
    const deniedGql = await gql(app, readOnly, `mutation { createTeam(input: { name: ${JSON.stringify(name)} }) { id } }`);
    expect(errorCode(deniedGql)).toBe('FORBIDDEN');
    expect((await ok('get', readOnly, `/v1/teams?q=${encodeURIComponent(name)}`)).items).toEqual([]);

    const team = await ok('post', writer, '/v1/teams', { name }, 201);
    expect(team).toMatchObject({ createdBy: owner.username, myRole: 'leader' });
    // a write-only token cannot read
    expect((await call('get', writer, `/v1/teams/${team.id}`)).body).toMatchObject({ code: 'FORBIDDEN', requiredScope: 'profile:read' });
    expect((await ok('get', readOnly, `/v1/teams/${team.id}`)).memberCount).toBe(1);
    expect((await call('post', readOnly, `/v1/teams/${team.id}/leave`)).status).toBe(403);
    expect((await ok('get', readOnly, `/v1/teams/${team.id}`)).memberCount).toBe(1);
    // the API token may be created with it, and OAuth apps may ask for it
    const meta = await http().get('/.well-known/oauth-authorization-server');
    expect(meta.body.scopes_supported).toContain('team:write');
  });

  it(`an account belongs to at most ${TEAMS_PER_ACCOUNT} teams, pending requests included`, async () => {
    const busy = await register(app, 'bz');
    const other = await register(app, 'bo');
    const closed = await ok('post', other, '/v1/teams', { name: teamName('Closed'), open: false }, 201);
    await ok('post', busy, `/v1/teams/${closed.id}/join`);
    for (let i = 1; i < TEAMS_PER_ACCOUNT; i++) await ok('post', busy, '/v1/teams', { name: teamName(`Mine ${i}`) }, 201);
    const more = await call('post', busy, '/v1/teams', { name: teamName('One too many') });
    expect(more.status).toBe(409);
    expect(more.body).toMatchObject({ code: 'LIMIT_REACHED', limit: TEAMS_PER_ACCOUNT, live: TEAMS_PER_ACCOUNT });
    const open = await ok('post', other, '/v1/teams', { name: teamName('Open') }, 201);
    expect(await refused('post', busy, `/v1/teams/${open.id}/join`)).toEqual([409, 'LIMIT_REACHED']);
    expect((await ok('get', other, `/v1/teams/${open.id}`)).memberCount).toBe(1);
    // withdrawing the request frees a place
    await ok('post', busy, `/v1/teams/${closed.id}/leave`);
    expect(await ok('post', busy, `/v1/teams/${open.id}/join`)).toMatchObject({ myRole: 'member' });
  });

  it('two leaders leaving at once leave one of them leader; TeamsService answers who is in which team', async () => {
    const [a, b, c, d] = [await register(app, 'ra'), await register(app, 'rb'), await register(app, 'rc'), await register(app, 'rd')];
    const team = await ok('post', a, '/v1/teams', { name: teamName('Race') }, 201);
    await ok('post', b, `/v1/teams/${team.id}/join`);
    await ok('post', c, `/v1/teams/${team.id}/join`);
    await ok('post', a, `/v1/teams/${team.id}/leaders/${b.username}`);
    const both = await Promise.all([call('post', a, `/v1/teams/${team.id}/leave`), call('post', b, `/v1/teams/${team.id}/leave`)]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    const after = await ok('get', c, `/v1/teams/${team.id}`);
    expect(after.leaders).toHaveLength(1);
    expect(after.memberCount).toBe(2);

    const teams = app.get(TeamsService);
    const stayed = both[0].status === 200 ? b : a;
    expect(await teams.isMember(team.id, c.id)).toBe(true);
    expect(await teams.isMember(team.id, d.id)).toBe(false);
    expect(await teams.teamIdsOf(c.id)).toEqual([team.id]);
    expect(await teams.sharesATeam(c.id, stayed.id)).toBe(true);
    expect(await teams.sharesATeam(c.id, d.id)).toBe(false);
    expect(await teams.isMember('not-a-uuid', c.id)).toBe(false);
  });

  it('a team-only tournament: only a leader of the team creates it, only its members join (REST and GraphQL); the view shows teamId', async () => {
    const [leader, member, outsider] = [await register(app, 'oa'), await register(app, 'ob'), await register(app, 'oc')];
    const team = await ok('post', leader, '/v1/teams', { name: teamName('Club Cup') }, 201);
    await ok('post', member, `/v1/teams/${team.id}/join`);
    const settings = { name: 'Club cup', format: 'swiss', preset: 'scopa', teamId: team.id };

    expect(await refused('post', member, '/v1/tournaments', settings)).toEqual([403, 'FORBIDDEN']);
    expect(await refused('post', leader, '/v1/tournaments', { ...settings, teamId: '00000000-0000-4000-8000-000000000000' })).toEqual([404, 'NOT_FOUND']);
    expect(await refused('post', leader, '/v1/tournaments', { ...settings, teamId: 'not-a-team' })).toEqual([400, 'VALIDATION_FAILED']);
    const t = await ok('post', leader, '/v1/tournaments', settings, 201);
    expect(t).toMatchObject({ teamId: team.id, status: 'created' });
    expect((await http().get(`/v1/tournaments/${t.id}`)).body.teamId).toBe(team.id);

    const denied = await call('post', outsider, `/v1/tournaments/${t.id}/join`);
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ code: 'FORBIDDEN', teamId: team.id });
    expect(denied.body.detail).toContain('members of its team');
    expect((await ok('post', member, `/v1/tournaments/${t.id}/join`)).players).toEqual([{ player: member.username, withdrawn: false }]);
    // the outsider joins the team, then the tournament
    await ok('post', outsider, `/v1/teams/${team.id}/join`);
    expect((await ok('post', outsider, `/v1/tournaments/${t.id}/join`)).players.map((p: { player: string }) => p.player)).toEqual([
      member.username,
      outsider.username,
    ]);

    // the log carries teamId and audits as sound once started
    await ok('post', leader, `/v1/tournaments/${t.id}/start`);
    const exported = await http().get(`/v1/tournaments/${t.id}/export`);
    const created = exported.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .find((e) => e.type === 'TournamentCreated');
    expect(created.payload.teamId).toBe(team.id);
    expect(auditTournament(exported.text).problems).toEqual([]);

    // GraphQL: the same input field and refusal; an open tournament shows teamId null
    const other = await register(app, 'od');
    const viaGql = await gqlOk(app, leader.token, 'mutation($input: CreateTournamentInput!) { createTournament(input: $input) { id teamId } }', {
      input: { ...settings, name: 'Club cup 2' },
    });
    expect(viaGql.createTournament.teamId).toBe(team.id);
    const joinGql = await gql(app, other.token, 'mutation($id: ID!) { joinTournament(id: $id) { id } }', { id: viaGql.createTournament.id });
    expect(errorCode(joinGql)).toBe('FORBIDDEN');
    expect(
      (await gqlOk(app, null, 'query($id: ID!) { tournament(id: $id) { players { player } } }', { id: viaGql.createTournament.id })).tournament.players,
    ).toEqual([]);
    const open = await gqlOk(app, other.token, 'mutation { createTournament(input: { name: "Open", format: swiss, preset: "scopa" }) { teamId } }');
    expect(open.createTournament.teamId).toBeNull();
  });

  it('the SDK: every team method, and refusals as ScopaError codes', async () => {
    const sign = async (prefix: string) => {
      const client = new ScopaClient({ baseUrl: base });
      const username = uniqueName(prefix);
      await client.register(username, `password-of-${username}`);
      return { client, username };
    };
    const lead = await sign('sl');
    const ask = await sign('sq');
    const name = teamName('Sdk club');
    const team = await lead.client.createTeam({ name, description: 'by request', open: false });
    expect(team).toMatchObject({ name, open: false, myRole: 'leader' });
    expect((await ask.client.teams({ q: name.toLowerCase() })).items.map((t) => t.id)).toEqual([team.id]);
    expect(await ask.client.joinTeam(team.id)).toMatchObject({ requestPending: true });
    expect((await lead.client.teamRequests(team.id)).items.map((r) => r.username)).toEqual([ask.username]);
    await lead.client.declineTeamRequest(team.id, ask.username);
    await ask.client.joinTeam(team.id);
    expect((await lead.client.acceptTeamRequest(team.id, ask.username)).memberCount).toBe(2);
    expect((await ask.client.team(team.id)).myRole).toBe('member');
    expect((await ask.client.teamMembers(team.id, { first: 10 })).items.map((m) => m.username).sort()).toEqual([lead.username, ask.username].sort());
    const last = await lead.client.leaveTeam(team.id).catch((e: unknown) => e);
    expect(last).toBeInstanceOf(ScopaError);
    expect(last).toMatchObject({ code: 'CONFLICT', status: 409 });
    await expect(ask.client.kickTeamMember(team.id, lead.username)).rejects.toMatchObject({ code: 'FORBIDDEN', status: 403 });
    expect((await lead.client.appointTeamLeader(team.id, ask.username)).leaders.sort()).toEqual([lead.username, ask.username].sort());
    expect((await ask.client.kickTeamMember(team.id, lead.username)).memberCount).toBe(1);
    expect(await ask.client.leaveTeam(team.id)).toMatchObject({ memberCount: 0 });
    await expect(ask.client.team(team.id)).rejects.toMatchObject({ code: 'NOT_FOUND', status: 404 });
  });
});
