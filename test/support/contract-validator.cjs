// The response validator of test/support/contract-responses.ts. Loaded with Node's own require, outside jest's
// module system: openapi-backend needs an ES module (@apidevtools/json-schema-ref-parser) that jest on Node 20
// cannot require. Once per jest worker, so that each test file does not compile the document again.
'use strict';
const { readFileSync } = require('node:fs');
const path = require('node:path');
const { parse } = require('yaml');
const addFormats = require('ajv-formats');
const OpenAPIBackend = require('openapi-backend').default;

const JSON_TYPES = ['application/json', 'application/problem+json'];
let backend = null;

/** The document as the validator reads it: problem+json bodies validated as the JSON they are (openapi-backend validates application/json only). */
function definition() {
  const doc = parse(readFileSync(path.join(process.cwd(), 'openapi.yaml'), 'utf8'));
  for (const item of Object.values(doc.paths)) {
    for (const op of Object.values(item)) {
      for (const response of Object.values(op.responses ?? {})) {
        const content = response.content;
        if (content?.['application/problem+json'] && !content['application/json']) content['application/json'] = content['application/problem+json'];
      }
    }
  }
  return doc;
}

function api() {
  backend ??= (async () => {
    const b = new OpenAPIBackend({
      definition: definition(),
      // quick: each operation's validators are compiled when first used (the whole document takes seconds).
      quick: true,
      strict: false,
      validate: true,
      ajvOpts: { allErrors: true },
      customizeAjv: (ajv) => {
        addFormats.default(ajv);
        return ajv;
      },
    });
    await b.init();
    return b;
  })();
  return backend;
}

function declaredStatus(op, status) {
  const responses = op.responses ?? {};
  return responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default;
}

/** The disagreements of one response ({ method, url, status, contentType, text }) with the contract: [] when it agrees. */
async function check(seen) {
  // A CORS preflight is the browser's, answered before any route, and 431 is Node's HTTP server refusing headers
  // too large before the service sees the request: neither is an answer of an operation.
  if (seen.method === 'options' || seen.status === 431) return [];
  const b = await api();
  const pathname = seen.url.split('?')[0];
  const op = b.router.matchOperation({ method: seen.method, path: pathname, headers: {} });
  // A route the document does not have: only its 404 (or 405) agrees with that, or the 400 of a body that is not
  // JSON, which the body parser refuses before any route is matched (as Node refuses headers with 431).
  const unparsableBody = seen.status === 400 && /is not valid JSON|Unexpected token|Unexpected end of JSON/.test(seen.text ?? '');
  if (!op)
    return seen.status === 404 || seen.status === 405 || unparsableBody
      ? []
      : [`${seen.method.toUpperCase()} ${pathname}: answered ${seen.status}, but openapi.yaml has no such operation`];
  const response = declaredStatus(op, seen.status);
  if (!response) return [`${op.operationId}: status ${seen.status} is not declared`];
  const mediaType = seen.contentType.split(';')[0].trim().toLowerCase();
  const declared = Object.keys(response.content ?? {}).map((t) => t.toLowerCase());
  const empty = seen.text === null || seen.text === '';
  if (declared.length === 0)
    return empty || seen.status === 204 ? [] : [`${op.operationId} ${seen.status}: a body (${mediaType || 'no content-type'}) where none is declared`];
  if (!declared.includes(mediaType)) return [`${op.operationId} ${seen.status}: content-type ${mediaType || '(none)'}, declared ${declared.join(', ')}`];
  if (!JSON_TYPES.includes(mediaType)) return [];
  let body;
  try {
    body = JSON.parse(seen.text ?? '');
  } catch {
    return [`${op.operationId} ${seen.status}: ${mediaType} that is not JSON`];
  }
  const result = b.validateResponse(body, op, seen.status);
  return (result.errors ?? []).map(
    (e) => `${op.operationId} ${seen.status}: ${e.instancePath || '(body)'} ${e.message ?? ''} ${JSON.stringify(e.params ?? {})}`,
  );
}

module.exports = { check, JSON_TYPES };
