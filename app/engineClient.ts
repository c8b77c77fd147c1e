// The main thread's handle on the engine worker. Started before React renders
// so the cluster boots while the page paints. Actions are data sent to the
// worker; views come back as per-frame updates into the view store.
import * as Comlink from 'comlink';
import type { Command, EngineOptions } from '../engine/facade/types';
import type { ApplyDocResult, ExecResult, KubectlOutput, KubectlStream, ViewUpdate, WorkerApi } from '../engine/host/protocol';
import { receiveRequests } from './apiserver/requestStore';
import { receiveUpdate, useView } from './store/viewStore';
import { setActionError, useUi } from './store/uiStore';

export interface StartOptions extends EngineOptions {
  speed: number;
  paused: boolean;
}

/**
 * Reads ?seed=&members=&speed=&paused=&controlPlane=&epoch= from the page URL.
 * `epoch` (Unix ms) is the wall time virtual 0 stands for: the page's creation
 * unless the URL (a shared scenario) says otherwise.
 */
export function startOptionsFromUrl(search: string, pageCreatedMs: number = Date.now()): StartOptions {
  const q = new URLSearchParams(search);
  const num = (k: string, d: number) => {
    const v = Number(q.get(k));
    return q.has(k) && Number.isFinite(v) ? v : d;
  };
  const members = num('members', 3);
  return {
    seed: Math.trunc(num('seed', 1)) >>> 0,
    etcdMembers: [1, 3, 5].includes(members) ? members : 3,
    speed: num('speed', 1) > 0 ? num('speed', 1) : 1,
    paused: q.get('paused') === '1',
    // The Kubernetes control plane runs on etcd unless ?controlPlane=0 asks for etcd alone.
    controlPlane: q.get('controlPlane') !== '0',
    // Worker nodes (kubelets with a fake runtime): 3 unless ?nodes=N says otherwise.
    nodes: Math.max(0, Math.min(500, Math.trunc(num('nodes', 3)))),
    epochMs: Math.trunc(num('epoch', pageCreatedMs)),
  };
}

let remote: Comlink.Remote<WorkerApi> | null = null;
/** Settles once init() has answered: kubectl and apply wait for it (a command typed while the page loads). */
let started: Promise<unknown> = Promise.resolve();

export function startEngine(opts: StartOptions): void {
  performance.mark('kubeglass:worker-start');
  const worker = new Worker(new URL('../engine/host/worker.ts', import.meta.url), { type: 'module', name: 'kubeglass-engine' });
  worker.addEventListener('error', (e) => useView.setState({ fatal: `engine worker failed: ${e.message || 'load error'}` }));
  remote = Comlink.wrap<WorkerApi>(worker);
  const r = remote;
  started = (async () => {
    try {
      await r.subscribe(
        Comlink.proxy((u: ViewUpdate) => {
          if (u.full) performance.mark('kubeglass:first-view');
          receiveUpdate(u);
          if (u.requests || u.full) receiveRequests(u.requests, u.full);
        }),
      );
      const info = await r.init({ seed: opts.seed, etcdMembers: opts.etcdMembers, controlPlane: opts.controlPlane ?? true, nodes: opts.controlPlane === false ? 0 : (opts.nodes ?? 3), ...(opts.epochMs !== undefined ? { epochMs: opts.epochMs } : {}) });
      useView.setState({ info });
      await r.setSpeed(opts.speed);
      if (!opts.paused) await r.play();
    } catch (err) {
      useView.setState({ fatal: `engine failed to start: ${String(err)}` });
    }
  })();
}

/** The worker, once the engine has been created. */
async function ready(): Promise<Comlink.Remote<WorkerApi>> {
  await started;
  return api();
}

/** The worker's API once the engine exists, for views that query it directly (the scheduler panel). */
export const workerApi = ready;

function api(): Comlink.Remote<WorkerApi> {
  if (!remote) throw new Error('engine not started');
  return remote;
}

export const engine = {
  play: () => void api().play(),
  pause: () => void api().pause(),
  step: () =>
    void api()
      .step()
      .then((rec) => useUi.setState({ lastStep: rec })),
  stepMessage: () =>
    void api()
      .stepMessage()
      .then((rec) => useUi.setState({ lastStep: rec })),
  setSpeed: (speed: number) => void api().setSpeed(speed),
  /** Runs a command; a refusal is shown to the user, not thrown. */
  async exec(cmd: Command): Promise<ExecResult> {
    try {
      const r = await api().exec(cmd);
      setActionError(r.ok ? null : r.error);
      return r;
    } catch (err) {
      const error = String(err);
      setActionError(error);
      return { ok: false, error };
    }
  },
  /** One kubectl command line (without the leading `kubectl`); resolves when the simulated apiserver answers. */
  kubectl: async (args: string[], files?: Record<string, string>, onOutput?: (stream: KubectlStream, text: string) => void): Promise<KubectlOutput> =>
    (await ready()).kubectl(args, files, onOutput ? Comlink.proxy(onOutput) : undefined),
  /** Keys for the running kubectl that reads the terminal (kubectl exec -i). */
  kubectlInput: async (data: string): Promise<void> => (await ready()).kubectlInput(data),
  /** Ctrl-C for the running kubectl (ends a watch). */
  kubectlInterrupt: async (): Promise<void> => (await ready()).kubectlInterrupt(),
  /** Ends a `kubectl edit` with the edited text (the unchanged text cancels it). */
  kubectlEditDone: async (editId: number, text: string): Promise<KubectlOutput> => (await ready()).kubectlEditDone(editId, text),
  kubectlComplete: async (line: string): Promise<string[]> => (await ready()).kubectlComplete(line),
  /** Applies every document of a YAML buffer, one result per document. */
  apply: async (yaml: string): Promise<ApplyDocResult[]> => (await ready()).apply(yaml),
};
