// Keeps the contracts of a release: copies schema.graphql and openapi.yaml into
// contracts/releases/<package.json version>/, the baseline test/contract-breaking.e2e-spec.ts
// compares the next changes with (see CHANGELOG.md). Refuses to overwrite a release.
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = process.cwd();
const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const dir = path.join(root, 'contracts', 'releases', version);
if (existsSync(dir)) {
  console.error(`contracts/releases/${version} exists already: set the new version in package.json first`);
  process.exit(1);
}
mkdirSync(dir, { recursive: true });
for (const file of ['schema.graphql', 'openapi.yaml']) copyFileSync(path.join(root, file), path.join(dir, file));
console.log(`contracts of ${version} kept in contracts/releases/${version}/`);
