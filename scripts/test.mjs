// `npm test`: typecheck, lint, unit tests (protocol, layout, web), server API tests (PGlite, and
// PostgreSQL when TEST_DATABASE_URL is set) and the Chromium e2e tests. Every step runs even
// when an earlier one fails; the runners' own summaries print as they go, and the last
// line adds up the test counts of all runners.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const reports = join(root, '.tmp/test-reports');
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

const only = process.argv.slice(2);
// Each step's budget in seconds on the 2-core CI machine (the whole CI run aims at 20 minutes):
// a step over it is flagged in the closing table, so a slow new test is seen the day it lands.
const steps = [
  { name: 'typecheck', budget: 60, cmd: ['npm', 'run', '-s', 'typecheck'] },
  { name: 'lint', budget: 30, cmd: ['npx', 'biome', 'check', '.'] },
  {
    name: 'unit',
    budget: 150,
    cmd: [
      'npx',
      'vitest',
      'run',
      '--project',
      'protocol',
      '--project',
      'layout',
      '--project',
      'web',
      '--project',
      'player',
      // vitest runs one worker on a 2-core machine (cores - 1); the jsdom tests are CPU-bound and
      // take two: 207 s -> 127 s on CI's machine.
      '--maxWorkers=2',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${reports}/unit.json`,
    ],
    report: 'unit.json',
  },
  {
    name: 'server',
    budget: 450,
    cmd: [
      'npx',
      'vitest',
      'run',
      '--project',
      'server',
      // Two forks: each file boots its own app on its own databases (templates cloned per file),
      // so they do not share state; 660 s -> 391 s on CI's idle 2-core machine.
      '--maxWorkers=2',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${reports}/server.json`,
    ],
    report: 'server.json',
  },
  {
    name: 'e2e',
    budget: 540,
    cmd: ['npm', 'run', '-s', 'test:e2e'],
    env: { PLAYWRIGHT_JSON_OUTPUT_NAME: `${reports}/e2e.json` },
    report: 'e2e.json',
  },
].filter((s) => only.length === 0 || only.includes(s.name));

let passed = 0;
let failed = 0;
let skipped = 0;
const failures = [];
// The names of the failed tests, printed again at the end: CI keeps only the tail of the output.
const failedTests = [];

/** Playwright's JSON report: suites nest; a spec failed when one of its tests was 'unexpected'. */
function playwrightFailures(suites, path = []) {
  for (const suite of suites ?? []) {
    const here = suite.title ? [...path, suite.title] : path;
    for (const spec of suite.specs ?? []) {
      if ((spec.tests ?? []).some((t) => t.status === 'unexpected'))
        failedTests.push([...here, spec.title].join(' › '));
    }
    playwrightFailures(suite.suites, here);
  }
}
for (const step of steps) {
  console.log(`\n=== ${step.name}: ${step.cmd.join(' ')}`);
  const started = Date.now();
  const run = spawnSync(step.cmd[0], step.cmd.slice(1), {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...step.env },
  });
  step.seconds = (Date.now() - started) / 1000;
  console.log(`=== ${step.name}: exit ${run.status} in ${step.seconds.toFixed(1)} s`);
  if (run.status !== 0) failures.push(step.name);
  if (step.report && existsSync(join(reports, step.report))) {
    const report = JSON.parse(readFileSync(join(reports, step.report), 'utf8'));
    if ('numPassedTests' in report) {
      passed += report.numPassedTests;
      failed += report.numFailedTests;
      skipped += report.numPendingTests + (report.numTodoTests ?? 0);
      for (const file of report.testResults ?? []) {
        const failedHere = (file.assertionResults ?? []).filter((a) => a.status === 'failed');
        for (const a of failedHere) {
          // With the first lines of its message: the run's earlier output may not be kept.
          const message = (a.failureMessages?.[0] ?? '').split('\n').slice(0, 3).join('\n      ').slice(0, 1200);
          failedTests.push(`${relative(root, file.name)} › ${a.fullName}${message ? `\n      ${message}` : ''}`);
        }
        // A file that failed to load has no failed assertion but a message of its own.
        if (file.status === 'failed' && failedHere.length === 0) {
          failedTests.push(`${relative(root, file.name)}: ${(file.message ?? '').split('\n')[0]}`);
        }
      }
    } else if (report.stats) {
      playwrightFailures(report.suites);
      passed += report.stats.expected + report.stats.flaky;
      failed += report.stats.unexpected;
      skipped += report.stats.skipped;
    }
  } else if (step.report && run.status !== 0) {
    failed += 1;
  }
}

console.log('\nSteps (seconds, budget):');
for (const step of steps) {
  const over = step.seconds > step.budget ? '  over budget' : '';
  console.log(`  ${step.name.padEnd(10)} ${step.seconds.toFixed(1).padStart(7)} s  (budget ${step.budget} s)${over}`);
}
// .ci/run prints these again in its own closing table.
if (process.env.TEST_TIMINGS_FILE) {
  const file = join(root, process.env.TEST_TIMINGS_FILE);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, steps.map((s) => `${s.name} ${Math.round(s.seconds)} ${s.budget}\n`).join(''));
}
if (failures.length > 0) console.log(`\nFailed steps: ${failures.join(', ')}`);
if (failedTests.length > 0) console.log(`Failed tests:\n${failedTests.map((t) => `  ${t}`).join('\n')}`);
const counts = `${passed} passed, ${failed} failed, ${skipped} skipped`;
if (process.env.TEST_TIMINGS_FILE) writeFileSync(join(root, `${process.env.TEST_TIMINGS_FILE}.counts`), `${counts}\n`);
console.log(`\n${counts}`);
process.exit(failures.length > 0 ? 1 : 0);
