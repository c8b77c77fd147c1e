// `npm test`: type-check, lint, unit and property tests, build, Playwright e2e.
// Prints one closing line over all suites: "N passed, N failed, N skipped".
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(chromium)) {
  console.log(`npm test needs Chromium for the e2e suite: install it with "apt-get install -y chromium" (or set CHROMIUM_PATH).`);
  process.exit(1);
}
mkdirSync('test-results', { recursive: true });

let passed = 0;
let failed = 0;
let skipped = 0;

function run(title: string, cmd: string, args: string[]): boolean {
  console.log(`\n=== ${title}: ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: process.env });
  return r.status === 0;
}

function stage(title: string, cmd: string, args: string[]): void {
  if (run(title, cmd, args)) passed++;
  else {
    failed++;
    console.log(`=== ${title} FAILED`);
  }
}

stage('type-check', 'npx', ['tsc', '-p', '.']);
stage('lint', 'npx', ['tsx', 'scripts/lint.ts']);

const vitestOk = run('unit and property tests', 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', '--outputFile=test-results/vitest.json']);
if (existsSync('test-results/vitest.json')) {
  const v = JSON.parse(readFileSync('test-results/vitest.json', 'utf8')) as { numPassedTests: number; numFailedTests: number; numPendingTests: number; numTodoTests: number };
  passed += v.numPassedTests;
  failed += v.numFailedTests;
  skipped += v.numPendingTests + v.numTodoTests;
  if (!vitestOk && v.numFailedTests === 0) failed++; // a suite failed to load
} else if (!vitestOk) failed++;

const built = run('build', 'npx', ['vite', 'build']);
if (built) passed++;
else failed++;

if (built) {
  const e2eOk = run('e2e (Playwright, Chromium)', 'npx', ['playwright', 'test']);
  if (existsSync('test-results/playwright.json')) {
    const p = JSON.parse(readFileSync('test-results/playwright.json', 'utf8')) as { stats: { expected: number; unexpected: number; flaky: number; skipped: number } };
    passed += p.stats.expected + p.stats.flaky;
    failed += p.stats.unexpected;
    skipped += p.stats.skipped;
    if (!e2eOk && p.stats.unexpected === 0) failed++;
  } else if (!e2eOk) failed++;
}

console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
