/**
 * The SDK's README names every public member of ScopaClient (its table
 * "Every method of `ScopaClient`"): a method added without a line there
 * fails here. The members are read from client.ts with the TypeScript parser
 * (everything but `#private` ones, the constructor and those marked
 * `@internal`).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const SDK = path.join(process.cwd(), 'sdk');

/** The public members of a class in a source file, static ones as `ScopaClient.name`, the others as `client.name`. */
function publicMembers(file: string, className: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found = source.statements.find((s): s is ts.ClassDeclaration => ts.isClassDeclaration(s) && s.name?.text === className);
  if (!found) throw new Error(`no class ${className} in ${file}`);
  return found.members.flatMap((member) => {
    if (!member.name || !ts.isIdentifier(member.name)) return []; // the constructor, #private members
    if (ts.getJSDocTags(member).some((tag) => tag.tagName.text === 'internal')) return [];
    const modifiers = ts.canHaveModifiers(member) ? (ts.getModifiers(member) ?? []) : [];
    if (modifiers.some((m) => m.kind === ts.SyntaxKind.PrivateKeyword || m.kind === ts.SyntaxKind.ProtectedKeyword)) return [];
    const isStatic = modifiers.some((m) => m.kind === ts.SyntaxKind.StaticKeyword);
    return [`${isStatic ? className : 'client'}.${member.name.text}`];
  });
}

describe('sdk/README.md', () => {
  const readme = readFileSync(path.join(SDK, 'README.md'), 'utf8');
  const section = /## Every method of `ScopaClient`\n([\s\S]*?)\n## /.exec(readme)?.[1] ?? '';

  it('has a table of the methods of ScopaClient', () => {
    expect(section).toContain('| method | what it does |');
  });

  it('names every public member of ScopaClient in that table, as `client.name` (static ones as `ScopaClient.name`)', () => {
    const members = publicMembers(path.join(SDK, 'src', 'client.ts'), 'ScopaClient');
    expect(members).toEqual(expect.arrayContaining(['ScopaClient.login', 'client.login', 'client.play', 'client.follow', 'client.rest']));
    const named = (member: string) => new RegExp('\\| `' + member.replace('.', '\\.') + '\\b').test(section);
    expect(members.filter((member) => !named(member))).toEqual([]);
  });
});
