import { createHash, randomBytes } from 'node:crypto';

/** A browser's cookies, enough for the authorization flow: name → value, with the path each was set for. */
export class CookieJar {
  private readonly cookies = new Map<string, { value: string; path: string }>();

  take(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';').map((s) => s.trim());
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      const path = attrs.find((a) => /^path=/i.test(a))?.slice(5) ?? '/';
      const expired = attrs.some((a) => /^expires=/i.test(a) && new Date(a.slice(8)).getTime() < Date.now()) || attrs.some((a) => /^max-age=0$/i.test(a));
      const key = `${name};${path}`;
      if (expired || value === '') this.cookies.delete(key);
      else this.cookies.set(key, { value, path });
    }
  }

  header(url: string): string {
    const path = new URL(url).pathname;
    return [...this.cookies.entries()]
      .filter(([, c]) => path === c.path || path.startsWith(c.path.endsWith('/') ? c.path : c.path + '/'))
      .map(([key, c]) => `${key.split(';')[0]}=${c.value}`)
      .join('; ');
  }
}

export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** A request from the "browser": cookies sent and kept, redirects not followed. */
export async function browse(jar: CookieJar, url: string, init: RequestInit = {}): Promise<Response> {
  const cookie = jar.header(url);
  const res = await fetch(url, { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string>), ...(cookie ? { cookie } : {}) } });
  jar.take(res);
  return res;
}

export function authorizeUrl(base: string, params: Record<string, string | undefined>): string {
  const u = new URL('/oauth/authorize', base);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) u.searchParams.set(k, v);
  return u.toString();
}

/** POST application/x-www-form-urlencoded to an OAuth endpoint; the JSON answer and status. */
export async function form(
  url: string,
  body: Record<string, string | undefined>,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any }> {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(body)) if (v !== undefined) params.set(k, v);
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: params.toString() });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: parsed };
}

/** A redirect URI for apps registered by tests (a native app: any loopback port). */
export const TEST_REDIRECT = 'http://127.0.0.1/callback';

/**
 * The whole authorization code flow of a public app for `user` (a password
 * session), as a browser and the app would run it: registers a new app
 * (owned by `owner`, default `user`), authorizes `scope`, approves on the
 * consent page, exchanges the code. The app's id and the token response.
 */
export async function oauthTokens(
  base: string,
  user: { token: string },
  scope: string,
  owner: { token: string } = user,
): Promise<{ clientId: string; access_token: string; refresh_token: string; expires_in: number }> {
  const reg = await fetch(`${base}/v1/oauth/apps`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${owner.token}` },
    body: JSON.stringify({ name: 'Test app', redirectUris: [TEST_REDIRECT] }),
  });
  if (reg.status !== 201) throw new Error(`register app: ${reg.status} ${await reg.text()}`);
  const clientId = ((await reg.json()) as { app: { id: string } }).app.id;
  const { verifier, challenge } = pkce();
  const jar = new CookieJar();
  const params = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: TEST_REDIRECT,
    scope,
    state: 's' + Math.random(),
    code_challenge: challenge,
    code_challenge_method: 'S256',
  };
  const first = await browse(jar, authorizeUrl(base, params));
  const consent = new URL(first.headers.get('location') ?? '', base);
  const auth = { authorization: `Bearer ${user.token}` };
  const details = await browse(jar, `${consent}/request`, { headers: auth });
  if (details.status !== 200) throw new Error(`consent request: ${details.status} ${await details.text()}`);
  const decided = await browse(jar, consent.toString(), {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ approve: true }),
  });
  const { redirectTo } = (await decided.json()) as { redirectTo: string };
  const back = await browse(jar, redirectTo);
  const code = new URL(back.headers.get('location') ?? '', base).searchParams.get('code');
  if (!code) throw new Error(`no code: ${back.status} ${back.headers.get('location')}`);
  const tokens = await form(`${base}/oauth/token`, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: TEST_REDIRECT,
    client_id: clientId,
    code_verifier: verifier,
  });
  if (tokens.status !== 200) throw new Error(`token: ${tokens.status} ${JSON.stringify(tokens.body)}`);
  return { clientId, ...tokens.body };
}
