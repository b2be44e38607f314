// `npm run build`'s last step (postbuild): the stamp that `npm start`'s pre-step (scripts/build-if-stale.mjs) compares
// with the sources. The build's prebuild deletes dist/, stamp included, so without this every `npm start` after a
// `npm run build` built everything again.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const BUILD_STAMP = path.join('dist', '.built');

mkdirSync(path.dirname(BUILD_STAMP), { recursive: true });
writeFileSync(BUILD_STAMP, new Date().toISOString() + '\n');
