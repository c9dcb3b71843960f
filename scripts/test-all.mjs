#!/usr/bin/env node
// `npm test`: the whole suite. Type-checks, lints (ESLint, with the layer rules), runs the unit
// tests (vitest) and the browser tests (Playwright in Debian Chromium), then prints one line
// `N passed, N failed` with the totals over both, which is what CI reads; a type or lint error
// counts as one failed check. Exits non-zero when anything failed or did not run.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const out = join(process.cwd(), 'test-results');
mkdirSync(out, { recursive: true });
const vitestJson = join(out, 'vitest.json');
const playwrightJson = join(out, 'playwright.json');
rmSync(vitestJson, { force: true });
rmSync(playwrightJson, { force: true });

function run(cmd, args, env = {}) {
  console.log(`\n$ ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  return r.status ?? 1;
}

let passed = 0;
let failed = 0;
let problems = 0;
// The names of failed tests, printed again just above the totals: CI logs are often read from the
// end, and vitest's report of a failure sits far above it.
const failedNames = [];

if (run('npx', ['tsc', '--noEmit']) !== 0) {
  failedNames.push('the type check (tsc --noEmit)');
  problems++;
}

if (run('npx', ['eslint', '.']) !== 0) {
  failedNames.push('the lint (eslint .)');
  problems++;
}

const vitestStatus = run('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile=${vitestJson}`]);
if (existsSync(vitestJson)) {
  const r = JSON.parse(readFileSync(vitestJson, 'utf8'));
  passed += r.numPassedTests;
  failed += r.numFailedTests;
  // Files that failed to load count as failures too.
  const brokenFiles = (r.testResults ?? []).filter((f) => f.status === 'failed' && f.assertionResults.length === 0).length;
  failed += brokenFiles;
  for (const f of r.testResults ?? []) {
    const file = f.name.replace(`${process.cwd()}/`, '');
    if (f.status === 'failed' && f.assertionResults.length === 0) failedNames.push(`${file} (did not load)`);
    for (const a of f.assertionResults) {
      if (a.status === 'failed') failedNames.push(`${file} › ${a.fullName}: ${(a.failureMessages?.[0] ?? '').split('\n')[0].slice(0, 200)}`);
    }
  }
  const skipped = r.numPendingTests + r.numTodoTests;
  console.log(`unit: ${r.numPassedTests} passed, ${r.numFailedTests + brokenFiles} failed${skipped ? `, ${skipped} skipped` : ''}`);
} else {
  console.log('unit: vitest wrote no results');
  problems++;
}
if (vitestStatus !== 0 && failed === 0) {
  // Every test passed, yet vitest failed: an unhandled error or a hook's timeout (its report above).
  failedNames.push(`vitest exited with status ${vitestStatus} though no test failed: an unhandled error or a hook (see vitest's report above)`);
  problems++;
}

const skipE2E = process.env.FLAMEVIEW_SKIP_E2E === '1';
if (!skipE2E) {
  const pwStatus = run('npx', ['playwright', 'test', '--reporter=list,json'], { PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightJson });
  if (existsSync(playwrightJson)) {
    const r = JSON.parse(readFileSync(playwrightJson, 'utf8'));
    const s = r.stats ?? {};
    const ok = (s.expected ?? 0) + (s.flaky ?? 0);
    const bad = (s.unexpected ?? 0);
    passed += ok;
    failed += bad;
    // Errors outside any test (global setup, the web server): the run is not whole.
    for (const e of r.errors ?? []) failedNames.push(`Playwright: ${(e.message ?? '').split('\n')[0].slice(0, 200)}`);
    if ((r.errors ?? []).length > 0) problems++;
    // Top-level suites are files; the nested ones are describe() titles.
    const walk = (suite, path) => {
      for (const spec of suite.specs ?? []) {
        if ((spec.tests ?? []).some((t) => t.status === 'unexpected')) failedNames.push(`${spec.file}:${spec.line} › ${[...path, spec.title].join(' › ')}`);
      }
      for (const child of suite.suites ?? []) walk(child, [...path, child.title]);
    };
    for (const suite of r.suites ?? []) walk(suite, []);
    console.log(`browser: ${ok} passed, ${bad} failed${s.skipped ? `, ${s.skipped} skipped` : ''}`);
  } else {
    console.log('browser: Playwright wrote no results');
    problems++;
  }
  if (pwStatus !== 0 && failed === 0) {
    failedNames.push(`Playwright exited with status ${pwStatus} though no test failed (see its report above)`);
    problems++;
  }
}

failed += problems;
for (const name of failedNames) console.log(`failed: ${name}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
