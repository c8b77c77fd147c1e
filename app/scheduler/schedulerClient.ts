// The scheduler panel's reads and writes, through the engine worker; and
// `window.__kubeglassScheduler`, a handle for end-to-end tests and the devtools
// console (kubectl with in-memory files, the panel's state).
import type { KubectlOutput } from '../../engine/host/protocol';
import { engine, workerApi } from '../engineClient';
import { SchedulerPoller, useScheduler, type SchedulerSource, type SchedulerState } from './schedulerStore';

export const workerSource: SchedulerSource = {
  view: async (recent) => (await workerApi()).schedulerView(recent),
  queue: async () => (await workerApi()).schedulerQueue(),
  decisions: async (pod) => (await workerApi()).schedulerDecisions(pod),
  watch: async (pod, on) => (await workerApi()).watchSchedulerDecisions(pod, on),
  config: async () => (await workerApi()).schedulerConfig(),
  // Not engine.exec: an invalid configuration is shown beside the editor, not in the banner.
  applyConfig: async (text) => (await workerApi()).exec({ type: 'schedulerConfig', text }),
};

export const poller = new SchedulerPoller(workerSource);

export interface SchedulerDebugHook {
  /** One kubectl command line; `files` are what -f may name (e.g. { 'nodes.yaml': '…' }). */
  kubectl(args: string[], files?: Record<string, string>): Promise<KubectlOutput>;
  /** The panel's state (last reads and choices). */
  state(): SchedulerState;
}

declare global {
  interface Window {
    __kubeglassScheduler?: SchedulerDebugHook;
  }
}

export function installSchedulerDebugHook(): void {
  if (typeof window === 'undefined') return;
  window.__kubeglassScheduler = {
    kubectl: (args, files) => engine.kubectl(args, files),
    state: () => useScheduler.getState(),
  };
}
