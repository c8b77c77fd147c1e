// The product's engine host: a dedicated Web Worker that owns the Engine, paces
// virtual time against the wall clock and posts compact view updates to the UI
// through Comlink. The main thread never runs simulation work.
import * as Comlink from 'comlink';
import { Engine } from '../index';
import type { Command, EngineOptions } from '../facade/types';
import type { ExecResult, SessionInfo, ViewUpdate, WorkerApi } from './protocol';
import { HostSession, type HostTimers } from './session';

const timers: HostTimers = {
  now: () => performance.now(),
  schedule: (fn, ms) => setTimeout(fn, ms),
  cancel: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

let session: HostSession | null = null;
let pendingListener: ((u: ViewUpdate) => void) | null = null;

function need(): HostSession {
  if (!session) throw new Error('worker: init() has not been called');
  return session;
}

const api: WorkerApi = {
  init(opts: EngineOptions): SessionInfo {
    const engine = Engine.create(opts);
    if (session) session.replace(engine);
    else {
      session = new HostSession(engine, timers);
      if (pendingListener) session.subscribe(pendingListener);
    }
    return { seed: opts.seed, etcdMembers: opts.etcdMembers, scenario: `etcd: ${opts.etcdMembers} member${opts.etcdMembers === 1 ? '' : 's'}` };
  },
  subscribe(callback: (u: ViewUpdate) => void): void {
    pendingListener = callback;
    session?.subscribe(callback);
  },
  play: () => need().play(),
  pause: () => need().pause(),
  step: () => need().step(),
  stepMessage: () => need().stepMessage(),
  setSpeed: (speed: number) => need().setSpeed(speed),
  exec: (cmd: Command): ExecResult => need().exec(cmd),
};

Comlink.expose(api);
