/** The repository's own source files, for the specs that read code as text (src/layering.spec.ts, src/reactions/after-append.spec.ts). */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Every .ts file below `dir`, specs and generated code left out. */
export function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'generated') return [];
    if (statSync(path).isDirectory()) return sources(path);
    return path.endsWith('.ts') && !path.endsWith('.spec.ts') ? [path] : [];
  });
}

/** The text without its comments (a comment may name anything). */
export function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
}
