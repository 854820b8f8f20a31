// (e) axe-core counts per page and skin, as the e2e spec e2e/ui/a11y.spec.ts last wrote them
// (.tmp/a11y/skin-<n>.json): critical, serious, moderate and minor nodes. Run the spec first:
// `E2E_PORT=<port> npx playwright test -c e2e/playwright.config.ts e2e/ui/a11y.spec.ts`.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './lib.js';

interface PageCount {
  skin: number;
  page: string;
  critical: number;
  serious: number;
  moderate: number;
  minor: number;
}

const dir = join(root, '.tmp/a11y');
const files = existsSync(dir) ? readdirSync(dir).filter((f) => /^skin-\d+\.json$/.test(f)) : [];
if (files.length === 0) {
  console.log('no axe report: run e2e/ui/a11y.spec.ts first (it writes .tmp/a11y/skin-<n>.json)');
} else {
  let worst = 0;
  for (const file of files.sort()) {
    const report = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { at: string; counts: PageCount[] };
    console.log(`skin ${file.match(/\d+/)?.[0]} (axe run at ${report.at})`);
    for (const c of report.counts) {
      worst += c.critical + c.serious;
      console.log(
        `  ${c.page.padEnd(28)} critical ${c.critical}  serious ${c.serious}  moderate ${c.moderate}  minor ${c.minor}`,
      );
    }
  }
  console.log(`serious and critical nodes in all skins: ${worst} (aim 0)`);
}
