// `npm run bench -- map`: the cluster map at 500 / 5,000 nodes and 15,000 /
// 150,000 pods, in Chromium (driven by Playwright, as e2e is). The page
// (bench/map/) runs the real feed in a worker over a synthetic cluster shaped
// as the API server's cache holds it, the real transport (columnar deltas,
// transferred), MapData and ClusterMap, and flies the camera every frame
// while pods churn. Prints fps and frame-time percentiles per zoom level, the
// draw time, main-thread long tasks and the deltas' size and cost.
import { createServer, type Server } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import { chromium } from '@playwright/test';
import { build } from 'vite';
import react from '@vitejs/plugin-react';
import type { Scenario, ScenarioResult } from './map/main';

interface Figure {
  name: string;
  value: number;
  unit: string;
  goal?: number;
}

const SHAPES = [
  { nodes: 500, pods: 15_000 },
  { nodes: 5000, pods: 150_000 },
];

/** Each zoom level for a few seconds; 1% of the pods change every second (0.1% per 100 ms). */
function scenarios(pods: number): Scenario[] {
  const churn = Math.max(1, Math.round(pods / 1000));
  return [
    { name: 'whole cluster (fit)', flight: 'fit', seconds: 5, churn },
    { name: 'pods one by one', flight: 'pods', seconds: 5, churn },
    { name: 'full detail', flight: 'full', seconds: 5, churn },
  ];
}

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.woff2': 'font/woff2', '.ttf': 'font/ttf' };

function serve(dir: string): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const path = join(dir, decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
    const file = existsSync(path) && !path.endsWith('/') ? path : join(dir, 'index.html');
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  return new Promise((r) => server.listen(0, '127.0.0.1', () => r({ server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}` })));
}

export async function mapBench(report: (f: Figure) => void): Promise<void> {
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(executablePath)) {
    console.log(`map: skipped (needs Chromium at ${executablePath}; set CHROMIUM_PATH)`);
    return;
  }
  const out = mkdtempSync(join(tmpdir(), 'kubeglass-map-bench-'));
  const root = resolve('bench/map');
  await build({ configFile: false, root, logLevel: 'warn', plugins: [react()], build: { outDir: out, emptyOutDir: true, target: 'es2022' }, worker: { format: 'es' } });
  const { server, url } = await serve(out);
  // The e2e browser's flags (no GPU: the canvas is rasterised on the CPU).
  const browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'] });
  try {
    for (const shape of SHAPES) {
      const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      page.on('pageerror', (e) => console.log(`map: page error: ${e.message}`));
      await page.goto(`${url}/?nodes=${shape.nodes}&pods=${shape.pods}`);
      const t0 = performance.now();
      const got = await page.evaluate(() => window.__mapBench!.ready);
      const tag = `${shape.nodes.toLocaleString('en-US')} nodes, ${shape.pods.toLocaleString('en-US')} pods`;
      const first = await page.evaluate(() => window.__mapBench!.first());
      report({ name: `map ${tag}: page ready (cluster built in the worker, first delta applied, drawn)`, value: performance.now() - t0, unit: 'ms' });
      report({ name: `map ${tag}: the first read (${first.parts} deltas)`, value: first.bytes / 1024 / 1024, unit: `MiB; the longest delta applied on the main thread in ${first.maxApplyMs.toFixed(0)} ms` });
      if (got.nodes !== shape.nodes) throw new Error(`map bench: ${got.nodes} nodes drawn, ${shape.nodes} expected`);
      for (const s of scenarios(shape.pods)) {
        const r: ScenarioResult = await page.evaluate((sc) => window.__mapBench!.run(sc), s);
        const name = `map ${tag}, ${s.name} [${r.detail}, ${r.tiles} tiles]`;
        report({ name: `${name}: fps`, value: r.fps, unit: 'fps', goal: 50 });
        report({ name: `${name}: frame time p50 / p95 / p99`, value: r.frameMs.p50, unit: `ms / ${r.frameMs.p95} ms / ${r.frameMs.p99} ms (max ${r.frameMs.max})` });
        report({ name: `${name}: draw p50 / p95`, value: r.drawMs.p50, unit: `ms / ${r.drawMs.p95} ms (max ${r.drawMs.max})` });
        report({ name: `${name}: long tasks (> 50 ms)`, value: r.longTasks.count, unit: `(longest ${r.longTasks.maxMs} ms)` });
        report({ name: `${name}: delta mean size (${r.deltas.count} deltas)`, value: r.deltas.meanBytes / 1024, unit: `KiB (max ${(r.deltas.maxBytes / 1024).toFixed(1)} KiB; apply p95 ${r.deltas.applyP95} ms, feed p95 ${r.deltas.feedP95} ms in the worker)` });
      }
      await page.close();
    }
  } finally {
    await browser.close();
    server.close();
    rmSync(out, { recursive: true, force: true });
  }
}
