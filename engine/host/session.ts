// The browser host's pacing: virtual time runs at `speed` x wall time, in
// frames of about 16 ms. Each frame does a bounded amount of engine work so the
// worker stays responsive to commands; when the engine cannot keep up, the
// clock falls behind (reported as `lagging`) instead of queueing up debt.
// Wall time and scheduling are injected so Node tests can drive it by hand.
import type { Command, TraceRecordView } from '../facade/types';
import { MAX_SPEED, MIN_SPEED, type ClockView, type ExecResult, type ViewUpdate } from './protocol';
import { ViewDiffer, type ViewSource } from './viewDiff';

/** The part of the Engine facade a session drives. */
export interface PacedEngine extends ViewSource {
  exec(cmd: Command): ExecResult;
  advance(ms: number): void;
  stepEvent(): TraceRecordView | null;
  stepMessage(): TraceRecordView | null;
}

export interface HostTimers {
  /** Wall clock in ms (performance.now in the worker). */
  now(): number;
  /** Calls `fn` after about `ms` wall ms; returns a handle for `cancel`. */
  schedule(fn: () => void, ms: number): unknown;
  cancel(handle: unknown): void;
}

export interface SessionOptions {
  /** Wall ms between frames. */
  frameMs?: number;
  /** Wall ms of engine work allowed per frame. */
  budgetMs?: number;
  /** Largest virtual slice passed to one engine.advance call. */
  sliceMs?: number;
  /** Wall gaps longer than this (a throttled background tab) are not made up. */
  maxGapMs?: number;
}

export class HostSession {
  private speed = 1;
  private playing = false;
  private lagging = false;
  /** The first exception the engine threw; the session stays paused after it. */
  private engineError: string | null = null;
  private errorPosted = false;
  private lastClock: ClockView | null = null;
  private handle: unknown = null;
  private lastWall = 0;
  private listener: ((u: ViewUpdate) => void) | null = null;
  private lastPost = Number.NEGATIVE_INFINITY;
  private flushHandle: unknown = null;
  private readonly differ = new ViewDiffer();
  private readonly frameMs: number;
  private readonly budgetMs: number;
  private readonly sliceMs: number;
  private readonly maxGapMs: number;
  /** Called after virtual time moved (frames, steps, commands): hosts poll pending API calls here. */
  afterAdvance: (() => void) | null = null;

  constructor(
    private engine: PacedEngine,
    private readonly timers: HostTimers,
    opts: SessionOptions = {},
  ) {
    this.frameMs = opts.frameMs ?? 16;
    this.budgetMs = opts.budgetMs ?? 12;
    this.sliceMs = opts.sliceMs ?? 100;
    this.maxGapMs = opts.maxGapMs ?? 250;
  }

  /** Swaps in a new engine (a new scenario); subscribers get a full update. */
  replace(engine: PacedEngine): void {
    this.engine = engine;
    this.differ.reset();
    this.post();
  }

  subscribe(listener: (u: ViewUpdate) => void): void {
    this.listener = listener;
    this.differ.reset();
    this.post();
  }

  get isPlaying(): boolean {
    return this.playing;
  }

  get currentSpeed(): number {
    return this.speed;
  }

  play(): void {
    if (this.playing || this.engineError !== null) return;
    this.playing = true;
    this.lastWall = this.timers.now();
    this.schedule();
    this.post();
  }

  pause(): void {
    if (!this.playing) return;
    this.playing = false;
    this.lagging = false;
    if (this.handle !== null) this.timers.cancel(this.handle);
    this.handle = null;
    this.flush();
  }

  setSpeed(speed: number): void {
    if (!(speed > 0)) {
      this.pause();
      return;
    }
    const clamped = Math.min(MAX_SPEED, Math.max(MIN_SPEED, speed));
    if (clamped !== this.speed) {
      this.speed = clamped;
      this.engine.exec({ type: 'speed', speed: clamped });
    }
    this.flush();
  }

  /** Pauses, then processes exactly one kernel event. */
  step(): TraceRecordView | null {
    return this.stepWith('event');
  }

  /** Pauses, then processes events until the next message is delivered (or dropped). */
  stepMessage(): TraceRecordView | null {
    return this.stepWith('message');
  }

  private stepWith(unit: 'event' | 'message'): TraceRecordView | null {
    this.pause();
    if (this.engineError !== null) return null;
    try {
      const rec = unit === 'event' ? this.engine.stepEvent() : this.engine.stepMessage();
      this.afterAdvance?.();
      this.flush();
      return rec;
    } catch (err) {
      this.fail(err);
      return null;
    }
  }

  exec(cmd: Command): ExecResult {
    if (this.engineError !== null) return { ok: false, error: `the engine stopped: ${this.engineError}` };
    try {
      const r = this.engine.exec(cmd);
      this.flush();
      return r;
    } catch (err) {
      this.fail(err);
      return { ok: false, error: `the engine failed: ${describe(err)}` };
    }
  }

  /** An exception from the engine is a bug: stop, and tell the UI what happened. */
  private fail(err: unknown): void {
    this.engineError = describe(err);
    this.playing = false;
    this.lagging = false;
    if (this.handle !== null) this.timers.cancel(this.handle);
    this.handle = null;
    this.post();
  }

  /** One frame: advance virtual time by the wall time elapsed x speed, within the budget. */
  frame(): void {
    this.handle = null;
    if (!this.playing) return;
    const start = this.timers.now();
    const gap = Math.min(this.maxGapMs, Math.max(0, start - this.lastWall));
    this.lastWall = start;
    let remaining = gap * this.speed;
    try {
      while (remaining > 1e-9) {
        const slice = Math.min(remaining, this.sliceMs);
        this.engine.advance(slice);
        remaining -= slice;
        if (this.timers.now() - start >= this.budgetMs) break;
      }
    } catch (err) {
      this.fail(err);
      return;
    }
    // Dropping the rest keeps the worker responsive; the UI shows the lag.
    this.lagging = remaining > 1e-9;
    this.afterAdvance?.();
    this.post();
    this.schedule();
  }

  /** Posts an update now if anything changed (at most once per frame otherwise: see flush). */
  post(): void {
    if (this.flushHandle !== null) this.timers.cancel(this.flushHandle);
    this.flushHandle = null;
    if (!this.listener) return;
    let u: ViewUpdate | null;
    try {
      u = this.differ.next(this.engine, { speed: this.speed, playing: this.playing, lagging: this.lagging });
    } catch (err) {
      // A view that cannot be built is an engine bug too; report it once.
      if (this.engineError !== null) return;
      this.engineError = describe(err);
      this.playing = false;
      u = null;
    }
    if (this.engineError !== null && !this.errorPosted) {
      this.errorPosted = true;
      const clock: ClockView = { ...(this.lastClock ?? { virtualTime: 0, events: 0, traceDigest: '' }), speed: this.speed, playing: false, lagging: false };
      u = u ? { ...u, engineError: this.engineError } : { seq: 0, full: false, clock, engineError: this.engineError };
    }
    if (!u) return;
    this.lastClock = u.clock;
    this.lastPost = this.timers.now();
    this.listener(u);
  }

  /**
   * Posts changes, never more than once per frame: while playing the next frame
   * posts; while paused a post follows at once unless one went out within the
   * last frame, in which case it is deferred to the end of that frame.
   */
  flush(): void {
    if (this.playing) return;
    const since = this.timers.now() - this.lastPost;
    if (since >= this.frameMs) {
      this.post();
      return;
    }
    if (this.flushHandle !== null) return;
    this.flushHandle = this.timers.schedule(() => {
      this.flushHandle = null;
      this.post();
    }, this.frameMs - since);
  }

  get error(): string | null {
    return this.engineError;
  }

  private schedule(): void {
    if (this.handle !== null || !this.playing) return;
    this.handle = this.timers.schedule(() => this.frame(), this.frameMs);
  }
}

function describe(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}
