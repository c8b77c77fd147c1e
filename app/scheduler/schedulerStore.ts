// The scheduler panel's state: what it last read from the engine (summary,
// queue, the selected pod's decisions, the running configuration) and what
// the user chose (pod, cycle, score mode, sort, the profile buffer). Reads go
// through a SchedulerSource (the worker in the page, a fake in tests) and are
// pulled while the panel is visible, at most a few times a second, and only
// when the engine has moved.
import { create } from 'zustand';
import type { DecisionJson, ExecResult, PodDecisions, QueueView, SchedulerView } from '../../engine/host/protocol';
import { DEFAULT_SORT, nextSort, type ScoreMode, type SortKey, type SortSpec } from './table';

export interface SchedulerSource {
  view(recent: number): Promise<SchedulerView | null>;
  queue(): Promise<QueueView | null>;
  decisions(pod: string): Promise<PodDecisions>;
  watch(pod: string, on: boolean): Promise<void>;
  config(): Promise<string | null>;
  applyConfig(text: string): Promise<ExecResult>;
}

/** Recent cycles the summary asks for. */
export const RECENT_CYCLES = 100;

export type ProfileStatus = { type: 'idle' } | { type: 'applying' } | { type: 'applied'; at: number } | { type: 'error'; error: string };

export interface SchedulerState {
  view: SchedulerView | null;
  queue: QueueView | null;
  /** The pod whose decisions are shown ("namespace/name"). */
  pod: string | null;
  decisions: DecisionJson[];
  /** The cycle chosen among the pod's decisions; null follows the newest. */
  cycle: number | null;
  mode: ScoreMode;
  sort: SortSpec;
  /** Only rows whose node name contains this. */
  nodeFilter: string;
  /** Show Filter plugins that PreFilter skipped for the pod (they say nothing about any node). */
  showSkipped: boolean;
  /** The running KubeSchedulerConfiguration, as last read. */
  runningConfig: string | null;
  /** The profile editor's buffer, and whether it differs from what was loaded or applied. */
  buffer: string;
  bufferDirty: boolean;
  profileStatus: ProfileStatus;
  /** The last read that failed (the engine may be restarting). */
  readError: string | null;
}

export const initialSchedulerState: SchedulerState = {
  view: null,
  queue: null,
  pod: null,
  decisions: [],
  cycle: null,
  mode: 'weighted',
  sort: DEFAULT_SORT,
  nodeFilter: '',
  showSkipped: false,
  runningConfig: null,
  buffer: '',
  bufferDirty: false,
  profileStatus: { type: 'idle' },
  readError: null,
};

export const useScheduler = create<SchedulerState>()(() => ({ ...initialSchedulerState }));

/** The decision shown: the chosen cycle, else the newest. */
export function shownDecision(s: Pick<SchedulerState, 'decisions' | 'cycle'>): DecisionJson | null {
  if (s.decisions.length === 0) return null;
  if (s.cycle !== null) {
    const d = s.decisions.find((x) => x.cycle === s.cycle);
    if (d) return d;
  }
  return s.decisions[s.decisions.length - 1]!;
}

/** The pod's cycles and outcomes in the recent list: when it changes, its decisions are read again. */
export function podSignature(view: SchedulerView | null, pod: string): string {
  if (!view) return '';
  return view.recent
    .filter((r) => r.pod === pod)
    .map((r) => `${r.cycle}:${r.outcome}`)
    .join(',');
}

/**
 * Pulls from a source: one read at a time; a request made while one runs is
 * remembered and served after it. Decisions (large at 500+ nodes) are read
 * only when the pod's entries in the recent cycles changed, or when asked.
 */
export class SchedulerPoller {
  private running = false;
  private again = false;
  private wantDecisions = false;
  private lastSignature = '';
  private lastCycles = -1;

  constructor(
    private readonly source: SchedulerSource,
    private readonly store = useScheduler,
  ) {}

  /** Reads the summary and queue; the selected pod's decisions if they may have changed (or `decisions`). */
  async refresh(decisions = false): Promise<void> {
    if (decisions) this.wantDecisions = true;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    try {
      do {
        this.again = false;
        await this.readOnce();
      } while (this.again);
    } finally {
      this.running = false;
    }
  }

  private async readOnce(): Promise<void> {
    try {
      const [view, queue] = await Promise.all([this.source.view(RECENT_CYCLES), this.source.queue()]);
      this.store.setState({ view, queue, readError: null });
      const pod = this.store.getState().pod;
      if (pod === null) return;
      const sig = podSignature(view, pod);
      const cycles = view?.stats?.cycles ?? 0;
      // More cycles than the recent list holds ran since the last read: the pod may have had one unseen.
      const overflowed = this.lastCycles >= 0 && cycles - this.lastCycles > RECENT_CYCLES;
      this.lastCycles = cycles;
      if (!this.wantDecisions && sig === this.lastSignature && !overflowed) return;
      this.wantDecisions = false;
      this.lastSignature = sig;
      const r = await this.source.decisions(pod);
      // The user may have picked another pod meanwhile.
      if (this.store.getState().pod === pod) this.store.setState({ decisions: r.decisions });
    } catch (err) {
      this.store.setState({ readError: String(err) });
    }
  }

  /** Shows a pod's decisions (and a cycle of them); keeps its records while it is shown. */
  async selectPod(pod: string, cycle: number | null = null): Promise<void> {
    const prev = this.store.getState().pod;
    const key = pod.trim();
    if (!key) return;
    if (prev === key) {
      this.store.setState({ cycle });
      await this.refresh(true);
      return;
    }
    this.store.setState({ pod: key, cycle, decisions: [] });
    this.lastSignature = '';
    try {
      if (prev) await this.source.watch(prev, false);
      await this.source.watch(key, true);
    } catch (err) {
      this.store.setState({ readError: String(err) });
    }
    await this.refresh(true);
  }

  async loadConfig(replaceBuffer: boolean): Promise<void> {
    try {
      const text = await this.source.config();
      const s = this.store.getState();
      const take = replaceBuffer || (!s.bufferDirty && s.buffer === '');
      this.store.setState({ runningConfig: text, ...(take && text !== null ? { buffer: text, bufferDirty: false } : {}) });
    } catch (err) {
      this.store.setState({ readError: String(err) });
    }
  }

  /** Applies the buffer; an invalid configuration leaves the buffer as it is and says why. */
  async applyConfig(now: number): Promise<ExecResult> {
    const text = this.store.getState().buffer;
    this.store.setState({ profileStatus: { type: 'applying' } });
    let r: ExecResult;
    try {
      r = await this.source.applyConfig(text);
    } catch (err) {
      r = { ok: false, error: String(err) };
    }
    if (!r.ok) {
      this.store.setState({ profileStatus: { type: 'error', error: r.error } });
      return r;
    }
    this.store.setState({ profileStatus: { type: 'applied', at: now }, bufferDirty: false });
    await this.loadConfig(false);
    return r;
  }
}

export function setBuffer(text: string): void {
  useScheduler.setState((s) => (s.buffer === text ? s : { buffer: text, bufferDirty: true }));
}

export function setScoreMode(mode: ScoreMode): void {
  useScheduler.setState({ mode });
}

export function sortBy(key: SortKey): void {
  useScheduler.setState((s) => ({ sort: nextSort(s.sort, key) }));
}

export function setNodeFilter(nodeFilter: string): void {
  useScheduler.setState({ nodeFilter });
}

export function setShowSkipped(showSkipped: boolean): void {
  useScheduler.setState({ showSkipped });
}

export function chooseCycle(cycle: number | null): void {
  useScheduler.setState({ cycle });
}
