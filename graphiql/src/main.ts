/**
 * GraphiQL for /graphql, bundled from npm (graphiql, React) by vite: no CDN.
 * Queries and mutations go over HTTP, subscriptions over graphql-ws, both
 * with the Authorization header of the headers editor, prefilled with the
 * web client's session when there is one (same origin, same localStorage).
 */
import 'graphiql/setup-workers/vite';
import 'graphiql/style.css';
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { GraphiQL } from 'graphiql';
import { createGraphiQLFetcher } from '@graphiql/toolkit';
import { Kind, parse } from 'graphql';
import type { OperationDefinitionNode } from 'graphql';
import type { Fetcher, FetcherOpts, FetcherParams } from '@graphiql/toolkit';

const url = new URL('/graphql', location.href).toString();
const subscriptionUrl = url.replace(/^http/, 'ws');

/** The web client's session token (src: web/src/api.ts, key scopa.session), if any and not expired. */
function webClientToken(): string | null {
  try {
    const s = JSON.parse(localStorage.getItem('scopa.session') ?? 'null') as { token?: string; expiresAt?: number } | null;
    return s?.token && (s.expiresAt ?? 0) > Date.now() ? s.token : null;
  } catch {
    return null;
  }
}

function authorizationOf(headers: FetcherOpts['headers']): string | null {
  for (const [name, value] of Object.entries(headers ?? {})) if (name.toLowerCase() === 'authorization' && typeof value === 'string' && value.trim()) return value.trim();
  return null;
}

// One fetcher per Authorization value: the graphql-ws connection sends it in connection_init.
const fetchers = new Map<string, Fetcher>();
const fetcher: Fetcher = (params: FetcherParams, opts?: FetcherOpts) => {
  const authorization = authorizationOf(opts?.headers) ?? '';
  let f = fetchers.get(authorization);
  if (!f) {
    // HTTP requests carry the editor's headers themselves (repeating them here would send the header twice).
    f = createGraphiQLFetcher({ url, subscriptionUrl, wsConnectionParams: authorization ? { authorization } : {} });
    fetchers.set(authorization, f);
  }
  // The toolkit sends an operation over graphql-ws when the document it is given says it is a
  // subscription: the one sent, parsed here (GraphiQL's own may lag behind the editor).
  let documentAST = opts?.documentAST;
  let operationName = params.operationName;
  try {
    documentAST = parse(params.query);
    const operations = documentAST.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
    const chosen = operations.find((o) => o.name?.value === params.operationName) ?? (operations.length === 1 ? operations[0] : undefined);
    if (chosen) operationName = chosen.name?.value ?? null;
  } catch {
    // not parseable: the server answers with the syntax error
  }
  return f({ ...params, operationName }, { ...opts, documentAST });
};

const token = webClientToken();
const defaultQuery = `# GraphiQL for Scopa as a service.
# Public fields (rulesets, user, leaderboard...) need no token; the others need
# "Authorization": "Bearer <token>" in Headers below: a session (login / register
# mutations, or the web client's, filled in for you when you are logged in there)
# or a personal API token (scopa_pat_...). Subscriptions run over graphql-ws.

query Presets {
  rulesets {
    id
    players
  }
}
`;

createRoot(document.getElementById('graphiql')!).render(
  createElement(GraphiQL, {
    fetcher,
    defaultQuery,
    defaultHeaders: token ? JSON.stringify({ Authorization: `Bearer ${token}` }, null, 2) : undefined,
    isHeadersEditorEnabled: true,
  }),
);
