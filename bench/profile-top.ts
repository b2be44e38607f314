/**
 * npx tsx bench/profile-top.ts <dir, .cpuprofile or .heapprofile files> [--top N] [--match REGEX]
 *
 * Sums V8 CPU profiles (`node --cpu-prof`, e.g. bench:api's instances with
 * BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof") and prints, as
 * shares of all samples (relative shares stay meaningful on a busy machine):
 *  - self time by function (name, file:line),
 *  - self time by where the code lives (a package of node_modules, the
 *    service's own file under dist/, node's internals, GC, idle),
 *  - inclusive time by function (a function counted once per sample even when
 *    it recurses), for the functions matching --match if given.
 * Idle samples and the start (everything under the entry point's first run:
 * loading modules, building the app) are left out.
 *
 * Sampling heap profiles (`.heapprofile`, e.g. from bench/heap-sample.cjs,
 * which counts what the collector has already taken too) are read the same
 * way with bytes allocated in place of samples: where the allocations that
 * keep the collector busy come from.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  hitCount?: number;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
}
interface HeapNode {
  callFrame: CallFrame;
  selfSize: number;
  children?: HeapNode[];
}

/** A sampling heap profile's tree as a CPU profile's nodes, each node's "hits" the bytes allocated there. */
function fromHeapProfile(head: HeapNode): Profile {
  const nodes: ProfileNode[] = [];
  const add = (h: HeapNode): number => {
    const node: ProfileNode = { id: nodes.length + 1, callFrame: h.callFrame, hitCount: h.selfSize, children: [] };
    nodes.push(node);
    for (const c of h.children ?? []) node.children!.push(add(c));
    return node.id;
  };
  add(head);
  return { nodes };
}

process.stdout.on('error', () => process.exit(0)); // piped into head
const args = process.argv.slice(2);
const opt = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args.splice(i, 2)[1] : undefined;
};
const top = Number(opt('--top') ?? 25);
const match = opt('--match');
const isProfile = (f: string) => f.endsWith('.cpuprofile') || f.endsWith('.heapprofile');
const files = args.flatMap((a) =>
  statSync(a).isDirectory()
    ? readdirSync(a)
        .filter(isProfile)
        .map((f) => join(a, f))
    : [a],
);
if (files.length === 0) throw new Error('usage: profile-top.ts <dir, .cpuprofile or .heapprofile files> [--top N] [--match REGEX]');
const heap = files.every((f) => f.endsWith('.heapprofile'));
if (!heap && files.some((f) => f.endsWith('.heapprofile'))) throw new Error('profile-top.ts: CPU and heap profiles do not add up; give one kind');

const fnKey = (f: CallFrame): string => {
  const file = f.url
    .replace(/^file:\/\//, '')
    .replace(/^.*\/node_modules\//, '~/')
    .replace(/^.*\/dist\//, 'dist/');
  return `${f.functionName || '(anonymous)'} ${file ? `${file}:${f.lineNumber + 1}` : ''}`.trim();
};
const placeOf = (f: CallFrame): string => {
  const url = f.url.replace(/^file:\/\//, '');
  if (!url) return f.functionName.startsWith('(') ? f.functionName : '(native)';
  const pkg = /\/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  const dist = /\/dist\/(.*)$/.exec(url);
  if (dist) return `dist/${dist[1]}`;
  if (url.startsWith('node:')) return 'node:internal';
  return url;
};

const self = new Map<string, number>();
const places = new Map<string, number>();
const inclusive = new Map<string, number>();
let total = 0;
let skipped = 0;
const re = match ? new RegExp(match) : null;

for (const file of files) {
  const read = JSON.parse(readFileSync(file, 'utf8')) as Profile | { head: HeapNode };
  const profile = 'head' in read ? fromHeapProfile(read.head) : read;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  // The start (loading the modules, building the app) is not the play path.
  const underStartup = (id: number): boolean => {
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at))
      if (byId.get(at)!.callFrame.functionName === 'executeUserEntryPoint') return true;
    return false;
  };
  for (const n of profile.nodes) {
    const hits = n.hitCount ?? 0;
    if (!hits) continue;
    if (n.callFrame.functionName === '(idle)' || underStartup(n.id)) {
      skipped += hits;
      continue;
    }
    total += hits;
    const k = fnKey(n.callFrame);
    self.set(k, (self.get(k) ?? 0) + hits);
    const p = placeOf(n.callFrame);
    places.set(p, (places.get(p) ?? 0) + hits);
    const seen = new Set<string>();
    for (let id: number | undefined = n.id; id !== undefined; id = parent.get(id)) {
      const key = fnKey(byId.get(id)!.callFrame);
      if (seen.has(key)) continue;
      seen.add(key);
      if (re && !re.test(key)) continue;
      inclusive.set(key, (inclusive.get(key) ?? 0) + hits);
    }
  }
}

const pct = (n: number) => `${((100 * n) / total).toFixed(1)}%`;
const print = (title: string, m: Map<string, number>, n = top) => {
  console.log(`\n${title}`);
  for (const [k, v] of [...m].sort((a, b) => b[1] - a[1]).slice(0, n)) console.log(`${pct(v).padStart(6)}  ${k}`);
};
const what = heap ? 'allocation' : 'time';
if (heap)
  console.log(
    `${files.length} heap profile(s), ${(total / 1e6).toFixed(1)} MB allocated after the start (shares below are of these; ${(skipped / 1e6).toFixed(1)} MB at start-up left out)`,
  );
else console.log(`${files.length} profile(s), ${total} busy samples after the start (shares below are of these; ${skipped} idle or start-up samples left out)`);
print(`self ${what} by function`, self);
print(`self ${what} by place (package, dist file, native)`, places);
print(`inclusive ${what} by function${match ? ` matching /${match}/` : ''}`, inclusive);
