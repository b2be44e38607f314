/**
 * No import cycle in the SDK: every file of sdk/src (type-only imports and
 * dynamic imports included) is a node, every relative import an edge, and the
 * graph must have no cycle. The walk is tested on a graph with one first, so
 * that a broken walk cannot pass by finding nothing.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const SRC = path.join(process.cwd(), 'sdk', 'src');

/** Every .ts file under dir (the generated layer and specs included). */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(full) : e.name.endsWith('.ts') ? [full] : [];
  });
}

/** The files of sdk/src a file imports: `./x.js` is x.ts, `./dir` is dir/index.ts; packages are left out. */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles
    .map((f) => f.fileName)
    .filter((name) => name.startsWith('.'))
    .map((name) => {
      const base = path.resolve(path.dirname(file), name.replace(/\.js$/, ''));
      const found = [`${base}.ts`, path.join(base, 'index.ts')].find((candidate) => existsSync(candidate));
      if (!found) throw new Error(`${path.relative(SRC, file)} imports ${name}, which is not in sdk/src`);
      return found;
    });
}

/** The cycles of a graph, each as the path that closes it (a -> b -> a). */
export function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
  return cycles;
}

describe('the SDK has no import cycle', () => {
  it('the walk finds a cycle where there is one', () => {
    const graph = new Map([
      ['client.ts', ['follow.ts', 'errors.ts']],
      ['follow.ts', ['errors.ts', 'client.ts']],
      ['errors.ts', []],
    ]);
    expect(cyclesOf(graph)).toEqual([['client.ts', 'follow.ts', 'client.ts']]);
    expect(
      cyclesOf(
        new Map([
          ['a.ts', ['b.ts']],
          ['b.ts', []],
        ]),
      ),
    ).toEqual([]);
  });

  it('no file of sdk/src imports itself back, through any path', () => {
    const files = sourceFiles(SRC);
    expect(files.map((f) => path.relative(SRC, f))).toEqual(expect.arrayContaining(['client.ts', 'follow.ts', 'index.ts']));
    const graph = new Map(files.map((f) => [path.relative(SRC, f), importsOf(f).map((i) => path.relative(SRC, i))]));
    expect(graph.get('client.ts')).toContain('follow.ts');
    expect(cyclesOf(graph).map((cycle) => cycle.join(' -> '))).toEqual([]);
  });
});
