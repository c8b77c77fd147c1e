// Test helpers for the in-page kubectl host: the simulation runs as the
// worker's frames run it (advance, poll the bridge, let promises settle)
// until kubectl's promise settles.
import type { Engine } from '../facade/engine';
import type { ApiBridge } from './apiBridge';
import type { KubectlHost } from './kubectlHost';

export interface Frames {
  /** Virtual ms per frame. */
  stepMs: number;
  /** Frames before giving up. */
  maxFrames: number;
}

/** Runs frames until `p` settles; its value, or its error rethrown. */
export async function settle<T>(e: Engine, bridge: ApiBridge, p: Promise<T>, frames: Frames, what = 'kubectl'): Promise<T> {
  let done = false;
  let value!: T;
  let error: unknown;
  p.then(
    (v) => ((done = true), (value = v)),
    (err) => ((done = true), (error = err)),
  );
  for (let i = 0; i < frames.maxFrames && !done; i++) {
    e.advance(frames.stepMs);
    bridge.poll();
    await new Promise((r) => setImmediate(r));
  }
  if (!done) throw new Error(`${what} did not finish`);
  if (error) throw error;
  return value;
}

/** `kubectl(...args)` through the host, run to completion in virtual time. */
export function kubectlRunner(e: Engine, bridge: ApiBridge, host: KubectlHost, frames: Frames) {
  return (...args: string[]) => settle(e, bridge, host.run(args), frames, `kubectl ${args.join(' ')}`);
}

/** Runs frames until `test()` holds (checked after each frame); throws with `what` if it never does. */
export async function framesUntil(e: Engine, bridge: ApiBridge, test: () => boolean, frames: Frames, what: string): Promise<void> {
  for (let i = 0; i < frames.maxFrames && !test(); i++) {
    e.advance(frames.stepMs);
    bridge.poll();
    await new Promise((r) => setImmediate(r));
  }
  if (!test()) throw new Error(`${what}: not within ${frames.maxFrames} frames`);
}
