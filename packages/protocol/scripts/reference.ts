import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REFERENCE_DOCS, renderReference } from '../src/reference.js';

// `npm run docs:protocol`: writes every generated endpoint reference (docs/endpoints.md...).
// With --check it writes nothing and exits 1 when a committed file is stale.

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const check = process.argv.includes('--check');
let stale = 0;
for (const spec of REFERENCE_DOCS) {
  const path = resolve(root, spec.file);
  const text = renderReference(spec);
  let current = '';
  try {
    current = readFileSync(path, 'utf8');
  } catch {
    // not written yet
  }
  if (current === text) continue;
  if (check) {
    stale += 1;
    console.error(`${spec.file} is stale: run npm run docs:protocol`);
  } else {
    writeFileSync(path, text);
    console.log(`wrote ${spec.file} (${spec.endpoints.length} endpoints)`);
  }
}
process.exit(stale ? 1 : 0);
