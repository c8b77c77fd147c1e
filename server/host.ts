// The headless host: one Engine in Node, its virtual clock paced by the wall
// clock (virtual ms = wall ms x speed). This is host code, so it may use
// timers and the wall clock; the engine itself never does.
//
// Pacing: a loop wakes every `frameMs` (every 1 ms while HTTP calls wait on
// the engine, so answers are not held back by the frame) and advances virtual
// time by the wall time elapsed x speed, in bounded slices so one wake-up
// never blocks the event loop for long; if the engine cannot keep up, the
// clock falls behind rather than piling up debt. After every slice the
// listeners (the gateway) look for finished calls and new watch events.
import { Engine } from '../engine/facade/engine';
import type { Command, EngineState } from '../engine/facade/types';

export interface HostOptions {
  seed: number;
  /**
   * Wall ms that virtual time 0 stands for; default: now, when the host starts,
   * so a real kubectl (which ages objects by its own clock) sees true ages. A
   * recorded run is replayed with the epoch it had (`--epoch`).
   */
  epochMs?: number;
  etcdMembers: number;
  /** Run kube-apiserver on the cluster (default true). */
  controlPlane?: boolean;
  /** Worker nodes (kubelets) to start with the control plane; default 0. */
  nodes?: number;
  /** --max-requests-inflight / --max-mutating-requests-inflight of the apiserver (400 / 200). */
  maxRequestsInflight?: number;
  maxMutatingRequestsInflight?: number;
  speed?: number;
  /** Wall ms between pacing wake-ups when idle (default 10). */
  frameMs?: number;
  /** Wall ms of engine work allowed per wake-up (default 40). */
  budgetMs?: number;
  /** Largest virtual slice per engine.advance call (default 50). */
  sliceMs?: number;
  /** Start the pacing loop (default true; tests may drive the clock by hand). */
  autoStart?: boolean;
}

export type HostListener = () => void;

export class EngineHost {
  readonly engine: Engine;
  private readonly listeners = new Set<HostListener>();
  private timer: NodeJS.Timeout | null = null;
  private lastWall = 0;
  private running = false;
  private readonly frameMs: number;
  private readonly budgetMs: number;
  private readonly sliceMs: number;
  /** How many callers currently wait for the engine (they ask for fast wake-ups). */
  private waiting = 0;
  /** Virtual ms owed but not run because the budget ran out, last wake-up. */
  lagging = false;
  /** Set when the engine threw while the host advanced it (an engine bug); the clock then stays put. */
  engineError: string | null = null;

  constructor(opts: HostOptions) {
    this.engine = Engine.create({
      seed: opts.seed,
      epochMs: opts.epochMs ?? Date.now(),
      etcdMembers: opts.etcdMembers,
      controlPlane: opts.controlPlane ?? true,
      ...(opts.nodes !== undefined && opts.controlPlane !== false ? { nodes: opts.nodes } : {}),
      ...(opts.maxRequestsInflight !== undefined ? { maxRequestsInflight: opts.maxRequestsInflight } : {}),
      ...(opts.maxMutatingRequestsInflight !== undefined ? { maxMutatingRequestsInflight: opts.maxMutatingRequestsInflight } : {}),
    });
    this.frameMs = opts.frameMs ?? 10;
    this.budgetMs = opts.budgetMs ?? 40;
    this.sliceMs = opts.sliceMs ?? 50;
    if (opts.speed !== undefined && opts.speed !== 1) {
      const r = this.engine.exec({ type: 'speed', speed: opts.speed });
      if (!r.ok) throw new RangeError(r.error);
    }
    if (opts.autoStart ?? true) this.start();
  }

  get speed(): number {
    return this.engine.speed;
  }

  state(): EngineState & { lagging: boolean; engineError?: string } {
    return { ...this.engine.state(), lagging: this.lagging, ...(this.engineError ? { engineError: this.engineError } : {}) };
  }

  /** Runs a command through the engine (recorded in its command log); listeners see its effects. */
  exec(command: Command) {
    const r = this.engine.exec(command);
    this.notify();
    return r;
  }

  onAdvance(fn: HostListener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Someone waits for the engine: wake up often until `release` is called. */
  hold(): () => void {
    this.waiting++;
    let released = false;
    if (this.running) this.reschedule(1);
    return () => {
      if (!released) {
        released = true;
        this.waiting--;
      }
    };
  }

  notify(): void {
    for (const fn of [...this.listeners]) {
      try {
        fn();
      } catch (e) {
        // A listener bug must not stop the clock or the other listeners.
        console.error('host listener failed:', e);
      }
    }
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.lastWall = performance.now();
    this.reschedule(this.frameMs);
  }

  stop(): void {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private reschedule(ms: number): void {
    if (!this.running) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.frame(), ms);
  }

  private frame(): void {
    this.timer = null;
    if (!this.running) return;
    const now = performance.now();
    const wallMs = Math.min(now - this.lastWall, 250); // a stalled process does not make up long gaps
    this.lastWall = now;
    let owed = this.engineError ? 0 : wallMs * this.engine.speed;
    const deadline = now + this.budgetMs;
    try {
      while (owed > 0 && performance.now() < deadline) {
        const slice = Math.min(owed, this.sliceMs);
        this.engine.advance(slice);
        owed -= slice;
        this.notify();
      }
    } catch (e) {
      // An engine exception is a bug: stop the clock, keep serving, and say why in /state.
      this.engineError = e instanceof Error ? e.message : String(e);
      console.error('engine failed; the clock is stopped:', e);
      owed = 0;
    }
    this.lagging = owed > 0;
    // Waiting callers want their answer as soon as virtual time allows; paused, nothing moves anyway.
    this.reschedule(this.waiting > 0 && this.engine.speed > 0 ? 1 : this.frameMs);
  }

  /**
   * Advances virtual time by `ms` now (the clock API), in slices, yielding to
   * the Node event loop between chunks so other requests keep being served.
   */
  async advanceBy(ms: number): Promise<void> {
    const target = this.engine.sim.now + ms;
    while (this.engine.sim.now < target) {
      const chunkEnd = performance.now() + this.budgetMs;
      while (this.engine.sim.now < target && performance.now() < chunkEnd) {
        this.engine.runUntil(Math.min(target, this.engine.sim.now + this.sliceMs));
        this.notify();
      }
      if (this.engine.sim.now < target) await new Promise<void>((r) => setImmediate(r));
    }
  }

  /** Processes `n` kernel events (the clock jumps to each one). */
  step(n: number): number {
    let done = 0;
    for (; done < n; done++) if (!this.engine.stepEvent()) break;
    this.notify();
    return done;
  }

  setSpeed(speed: number) {
    const r = this.engine.exec({ type: 'speed', speed });
    // Restart the wall reference so a paused stretch is not made up afterwards.
    this.lastWall = performance.now();
    return r;
  }
}
