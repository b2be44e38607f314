/**
 * The web client's languages (web/src/i18n.ts): every language has every key
 * of English in every namespace, with the same placeholders; every key a view
 * asks for exists; every error code the service or the SDK can give has a
 * message; and no view writes a visible string (a text child of h(), a
 * title, placeholder, aria-label or alt, a textContent, a confirm()) or a
 * date or number of its own format instead of a key and web/src/i18n.ts's
 * formatters.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { ERROR_CODES } from '../src/common/domain-error';

const WEB = join(process.cwd(), 'web', 'src');
const LOCALES = join(WEB, 'locales');
const LANGUAGES = ['en', 'it', 'fr', 'es', 'ar'];

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
}

function namespaces(language: string): Map<string, Map<string, string>> {
  const dir = join(LOCALES, language);
  const out = new Map<string, Map<string, string>>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json')))
    out.set(file.replace(/\.json$/, ''), flatten(JSON.parse(readFileSync(join(dir, file), 'utf8')) as Tree));
  return out;
}

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*([\w.]+)\s*(?:,[^}]*)?\}\}/g)].map((m) => m[1]).sort();
/** i18next's plural forms of a key (`_one`, `_other`, ...): languages have different sets. */
const PLURAL = /_(zero|one|two|few|many|other)$/;
const base = (key: string) => key.replace(PLURAL, '');

const english = namespaces('en');

describe('the locales', () => {
  it('has the namespaces of the client', () => {
    expect([...english.keys()]).toEqual(expect.arrayContaining(['common', 'errors']));
  });

  it.each(LANGUAGES.filter((l) => l !== 'en'))('%s has every namespace and key of English, with the same placeholders, and no other', (language) => {
    const theirs = namespaces(language);
    expect([...theirs.keys()].sort()).toEqual([...english.keys()].sort());
    const problems: string[] = [];
    for (const [ns, keys] of english) {
      const other = theirs.get(ns)!;
      const otherBases = new Set([...other.keys()].map(base));
      const englishBases = new Set([...keys.keys()].map(base));
      for (const key of englishBases) if (!otherBases.has(key)) problems.push(`${ns}:${key} missing`);
      for (const key of otherBases) if (!englishBases.has(key)) problems.push(`${ns}:${key} not in English`);
      for (const [key, text] of other) {
        if (text.trim() === '') problems.push(`${ns}:${key} empty`);
        const englishText = keys.get(key) ?? keys.get(`${base(key)}_other`) ?? keys.get(base(key));
        if (englishText !== undefined && placeholders(text).join() !== placeholders(englishText).join())
          problems.push(`${ns}:${key} placeholders ${placeholders(text).join()} vs ${placeholders(englishText).join()}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('English has no empty text', () => {
    const empty = [...english].flatMap(([ns, keys]) => [...keys].filter(([, text]) => text.trim() === '').map(([key]) => `${ns}:${key}`));
    expect(empty).toEqual([]);
  });

  it("has a message for every error code of the service and of the SDK's own", () => {
    const messages = english.get('errors')!;
    const codes = [...ERROR_CODES, 'NETWORK_ERROR', 'CLIENT', 'UNKNOWN'];
    expect(codes.filter((code) => !messages.has(code))).toEqual([]);
  });
});

// ------------------------------------------------------------------ the views

const views = readdirSync(WEB)
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && f !== 'i18n.ts')
  .map((file) => ({ file, source: ts.createSourceFile(file, readFileSync(join(WEB, file), 'utf8'), ts.ScriptTarget.ES2022, true) }));

/** Text a person reads: two letters in a row (a lone suit letter or index, a symbol, a number is not). */
const WORDS = /\p{L}{2,}/u;
const VISIBLE_ATTRIBUTES = new Set(['title', 'placeholder', 'aria-label', 'alt', 'label', 'aria-description', 'aria-roledescription']);
const VISIBLE_PROPERTIES = new Set(['textContent', 'innerText', 'title', 'placeholder', 'ariaLabel', 'label']);
const DIALOGS = new Set(['confirm', 'alert', 'prompt']);
const OWN_FORMATS = new Set(['toLocaleString', 'toLocaleDateString', 'toLocaleTimeString']);

/** The static text of a string or template literal (a template's parts between its values). */
function literalText(node: ts.Node): string | null {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) return [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join(' ');
  return null;
}

/** The literals a visible position holds: itself, or the branches of a condition, or the items of an array. */
function visibleLiterals(node: ts.Node): ts.Node[] {
  if (ts.isParenthesizedExpression(node)) return visibleLiterals(node.expression);
  if (ts.isConditionalExpression(node)) return [...visibleLiterals(node.whenTrue), ...visibleLiterals(node.whenFalse)];
  if (
    ts.isBinaryExpression(node) &&
    [ts.SyntaxKind.BarBarToken, ts.SyntaxKind.QuestionQuestionToken, ts.SyntaxKind.AmpersandAmpersandToken, ts.SyntaxKind.PlusToken].includes(
      node.operatorToken.kind,
    )
  )
    return [...visibleLiterals(node.left), ...visibleLiterals(node.right)];
  if (ts.isArrayLiteralExpression(node)) return node.elements.flatMap(visibleLiterals);
  return literalText(node) !== null ? [node] : [];
}

function hardCoded(source: ts.SourceFile): string[] {
  const found: string[] = [];
  const report = (node: ts.Node, what: string) => {
    const text = literalText(node);
    if (text !== null && WORDS.test(text))
      found.push(`${source.fileName}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1} ${what}: ${JSON.stringify(text.slice(0, 60))}`);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const name = ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) ? callee.name.text : '';
      if (name === 'h') {
        node.arguments.slice(2).forEach((arg) => visibleLiterals(arg).forEach((l) => report(l, 'text of h()')));
        const attrs = node.arguments[1];
        if (attrs && ts.isObjectLiteralExpression(attrs))
          for (const prop of attrs.properties)
            if (ts.isPropertyAssignment(prop) && VISIBLE_ATTRIBUTES.has(prop.name.getText(source).replace(/['"]/g, '')))
              visibleLiterals(prop.initializer).forEach((l) => report(l, `${prop.name.getText(source)} attribute`));
      }
      if (DIALOGS.has(name) && node.arguments[0]) visibleLiterals(node.arguments[0]).forEach((l) => report(l, `${name}()`));
      if (OWN_FORMATS.has(name))
        found.push(`${source.fileName}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1} ${name}() (use formatDate/formatNumber)`);
    }
    if (
      ts.isBinaryExpression(node) &&
      node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
      ts.isPropertyAccessExpression(node.left) &&
      VISIBLE_PROPERTIES.has(node.left.name.text)
    )
      visibleLiterals(node.right).forEach((l) => report(l, `${node.left.getText(source)} =`));
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Every literal key a view asks t() for. */
function keysAskedFor(source: ts.SourceFile): string[] {
  const keys: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 't' && node.arguments[0]) {
      const text = literalText(node.arguments[0]);
      if (text !== null && ts.isStringLiteral(node.arguments[0])) keys.push(text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return keys;
}

describe('the views', () => {
  it('reads every view', () => {
    expect(views.map((v) => v.file)).toEqual(expect.arrayContaining(['main.ts', 'table.ts', 'widgets.ts']));
  });

  it('write no visible string of their own', () => {
    expect(views.flatMap((v) => hardCoded(v.source))).toEqual([]);
  });

  it('ask only for keys English has', () => {
    const missing = views.flatMap((v) =>
      keysAskedFor(v.source)
        .filter((key) => {
          const [ns, ...rest] = key.includes(':') ? key.split(':') : ['common', key];
          const keys = english.get(ns);
          const path = rest.join(':');
          return !keys || !(keys.has(path) || keys.has(`${path}_other`) || keys.has(`${path}_one`));
        })
        .map((key) => `${v.file}: ${key}`),
    );
    expect(missing).toEqual([]);
  });
});
