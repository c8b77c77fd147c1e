// The map benchmark's page: the real ClusterMap fed by the real poller and
// MapData from the real feed in a worker (bench/map/worker.ts), the camera
// flown along a path every frame so every frame is redrawn, while pods churn.
// `window.__mapBench.run(scenario)` measures frame times, draw times, long
// tasks and the transport's cost; bench/map.ts drives it in Chromium.
import * as Comlink from 'comlink';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '../../app/styles.css';
import { ClusterMap } from '../../app/cluster/ClusterMap';
import { ClusterPoller, initialClusterState, type ClusterState } from '../../app/cluster/clusterStore';
import { MapData } from '../../app/cluster/mapData';
import { create } from 'zustand';
import type { MapBenchWorker } from './worker';
import type { Camera } from '../../app/cluster/camera';

export interface Scenario {
  name: string;
  /** Where the camera flies: the whole cluster, pods one by one, or every detail. */
  flight: 'fit' | 'pods' | 'full';
  seconds: number;
  /** Pods changed per 100 ms. */
  churn: number;
}

export interface ScenarioResult {
  name: string;
  frames: number;
  fps: number;
  frameMs: { p50: number; p95: number; p99: number; max: number };
  drawMs: { p50: number; p95: number; max: number };
  detail: string;
  tiles: number;
  longTasks: { count: number; maxMs: number };
  deltas: { count: number; meanBytes: number; maxBytes: number; applyP95: number; feedP95: number };
}

declare global {
  interface Window {
    __mapBench?: { ready: Promise<{ nodes: number; pods: number }>; run(s: Scenario): Promise<ScenarioResult>; first(): { parts: number; bytes: number; maxApplyMs: number } };
  }
}

const q = new URLSearchParams(location.search);
const NODES = Number(q.get('nodes') ?? 500);
const PODS = Number(q.get('pods') ?? 15000);
const POLL_MS = 300;

const worker = Comlink.wrap<MapBenchWorker>(new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' }));
const data = new MapData();
const store = create<ClusterState>()(() => initialClusterState);
const poller = new ClusterPoller({ map: (e, s) => worker.clusterMap(e, s), controllers: async () => null }, data, store);

function Bench() {
  const version = store((s) => s.version);
  return <ClusterMap data={data} version={version} />;
}

const pct = (xs: number[], p: number) => {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const round = (x: number) => Math.round(x * 100) / 100;

async function run(s: Scenario): Promise<ScenarioResult> {
  const hook = window.__kubeglassClusterMap!;
  hook.fit();
  await new Promise((r) => requestAnimationFrame(r));
  const fit = hook.camera();
  const w = window.innerWidth;
  const h = window.innerHeight;
  const k = s.flight === 'fit' ? fit.k : s.flight === 'pods' ? 0.32 : 1;
  // The middle of the world, where the camera circles.
  const cx = fit.x + w / fit.k / 2;
  const cy = fit.y + h / fit.k / 2;
  const radius = s.flight === 'fit' ? 0.04 * w : 300;
  await worker.churn(s.churn);
  await worker.takeFeedTimes();
  const deltas: { bytes: number; applyMs: number }[] = [];
  const unsub = store.subscribe((st, prev) => {
    if (st.lastDelta && st.lastDelta !== prev.lastDelta) deltas.push(st.lastDelta);
  });
  const poll = setInterval(() => void poller.refresh(false), POLL_MS);
  const long: number[] = [];
  const obs = new PerformanceObserver((list) => list.getEntries().forEach((e) => long.push(e.duration)));
  try {
    obs.observe({ type: 'longtask', buffered: false });
  } catch {
    /* longtask entries unsupported */
  }
  const frames: number[] = [];
  const draws: number[] = [];
  let lastDrawn = hook.stats().frames;
  const t0 = performance.now();
  await new Promise<void>((done) => {
    let prev = 0;
    const step = (t: number) => {
      if (prev) frames.push(t - prev);
      prev = t;
      const st = hook.stats();
      if (st.frames !== lastDrawn) {
        lastDrawn = st.frames;
        draws.push(st.drawMs);
      }
      const a = ((t - t0) / 1000) * Math.PI * 0.8;
      const cam: Camera = { x: cx + (Math.cos(a) * radius) / k - w / k / 2, y: cy + (Math.sin(a) * radius) / k - h / k / 2, k };
      hook.setCamera(cam);
      if (t - t0 < s.seconds * 1000) requestAnimationFrame(step);
      else done();
    };
    requestAnimationFrame(step);
  });
  const elapsed = performance.now() - t0;
  clearInterval(poll);
  obs.disconnect();
  unsub();
  await worker.churn(0);
  const feed = await worker.takeFeedTimes();
  const st = hook.stats();
  return {
    name: s.name,
    frames: frames.length,
    fps: round((frames.length / elapsed) * 1000),
    frameMs: { p50: round(pct(frames, 50)), p95: round(pct(frames, 95)), p99: round(pct(frames, 99)), max: round(Math.max(0, ...frames)) },
    drawMs: { p50: round(pct(draws, 50)), p95: round(pct(draws, 95)), max: round(Math.max(0, ...draws)) },
    detail: st.detail,
    tiles: st.tiles,
    longTasks: { count: long.length, maxMs: round(Math.max(0, ...long)) },
    deltas: {
      count: deltas.length,
      meanBytes: Math.round(deltas.reduce((a, d) => a + d.bytes, 0) / Math.max(1, deltas.length)),
      maxBytes: Math.max(0, ...deltas.map((d) => d.bytes)),
      applyP95: round(pct(deltas.map((d) => d.applyMs), 95)),
      feedP95: round(pct(feed, 95)),
    },
  };
}

/** The first read's parts: how big, and how long each took to apply on the main thread. */
const firstParts: { bytes: number; applyMs: number }[] = [];

const ready = (async () => {
  const pods = await worker.init(NODES, PODS);
  const unsub = store.subscribe((st, prev) => st.lastDelta && st.lastDelta !== prev.lastDelta && firstParts.push(st.lastDelta));
  await poller.refresh(false);
  unsub();
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <Bench />
    </StrictMode>,
  );
  await new Promise<void>((r) => {
    const wait = () => (window.__kubeglassClusterMap ? r() : requestAnimationFrame(wait));
    wait();
  });
  return { nodes: data.nodeTotal, pods };
})();

window.__mapBench = {
  ready,
  run,
  first: () => ({ parts: firstParts.length, bytes: firstParts.reduce((a, p) => a + p.bytes, 0), maxApplyMs: Math.max(0, ...firstParts.map((p) => p.applyMs)) }),
};
