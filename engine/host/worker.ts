// The product's engine host: a dedicated Web Worker that owns the Engine, paces
// virtual time against the wall clock and posts compact view updates to the UI
// through Comlink. The main thread never runs simulation work.
import * as Comlink from 'comlink';
import { Engine } from '../index';
import type { Command, EngineOptions } from '../facade/types';
import type { ApplyDocResult, ClusterView, ControllersView, EventsQuery, EventsView, ExecResult, InspectView, KubectlOutput, KubectlStream, MapDelta, ObjectRef, PacketTraceRequest, PacketTraceView, PodDecisions, QueueView, SchedulerView, SessionInfo, ViewUpdate, WorkerApi } from './protocol';
import { ApiBridge } from './apiBridge';
import { KubectlHost } from './kubectlHost';
import { HostSession, type HostTimers } from './session';
import { Observer } from '../facade/observer';
import { deltaBuffers } from '../facade/map/protocol';

const timers: HostTimers = {
  now: () => performance.now(),
  schedule: (fn, ms) => setTimeout(fn, ms),
  cancel: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

let session: HostSession | null = null;
let bridge: ApiBridge | null = null;
let kubectl: KubectlHost | null = null;
let current: Engine | null = null;
let observer: Observer | null = null;
let pendingListener: ((u: ViewUpdate) => void) | null = null;

function needKubectl(): KubectlHost {
  if (!kubectl) throw new Error('worker: init() has not been called');
  return kubectl;
}

function needEngine(): Engine {
  if (!current) throw new Error('worker: init() has not been called');
  return current;
}

function needObserver(): Observer {
  if (!observer) throw new Error('worker: init() has not been called');
  return observer;
}

function need(): HostSession {
  if (!session) throw new Error('worker: init() has not been called');
  return session;
}

const api: WorkerApi = {
  init(opts: EngineOptions): SessionInfo {
    const engine = Engine.create(opts);
    current = engine;
    observer = new Observer(engine);
    if (bridge) bridge.replace(engine);
    else bridge = new ApiBridge(engine);
    kubectl = new KubectlHost(bridge, () => current?.sim.now ?? 0);
    if (session) session.replace(engine);
    else {
      session = new HostSession(engine, timers);
      if (pendingListener) session.subscribe(pendingListener);
    }
    const b = bridge;
    session.afterAdvance = () => b.poll();
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
  kubectl: (args: string[], files?: Record<string, string>, onOutput?: (stream: KubectlStream, text: string) => void): Promise<KubectlOutput> => needKubectl().run(args, files ?? {}, onOutput),
  kubectlInput: (data: string): void => needKubectl().input(data),
  kubectlInterrupt: (): void => needKubectl().interrupt(),
  kubectlEditDone: (editId: number, text: string): Promise<KubectlOutput> => needKubectl().editDone(editId, text),
  kubectlComplete: (line: string): Promise<string[]> => needKubectl().complete(line),
  apply: (yaml: string): Promise<ApplyDocResult[]> => needKubectl().apply(yaml),
  schedulerView: (recent?: number): SchedulerView | null => needEngine().schedulerView(recent),
  schedulerQueue: (): QueueView | null => needEngine().schedulerQueue(),
  schedulerDecisions: (pod: string): PodDecisions => needEngine().schedulerDecisions(pod),
  watchSchedulerDecisions: (pod: string, on: boolean): void => needEngine().watchSchedulerDecisions(pod, on),
  schedulerConfig: (): string | null => needEngine().schedulerConfig(),
  clusterView: (): ClusterView | null => needEngine().clusterView(),
  controllersView: (): ControllersView | null => needEngine().controllersView(),
  clusterMap: (epoch: number, seq: number): MapDelta => {
    const d = needObserver().clusterMap(epoch, seq);
    return Comlink.transfer(d, deltaBuffers(d));
  },
  inspect: (ref: ObjectRef): InspectView | { error: string } => needObserver().inspect(ref),
  events: (query: EventsQuery): EventsView | null => needObserver().eventsView(query),
  tracePacket: (node: string, req: PacketTraceRequest): PacketTraceView | { error: string } | null => needEngine().tracePacket(node, req),
};

Comlink.expose(api);
