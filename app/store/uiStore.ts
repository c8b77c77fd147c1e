// UI-only state: what is selected, the partition being built, the theme and the
// timeline filters. Selecting a thing anywhere selects it everywhere.
import { create } from 'zustand';
import type { MessageInFlightView, TraceRecordView } from '../../engine/facade/types';
import type { ObjectRef } from '../../engine/host/protocol';

export type Selection =
  | { type: 'member'; name: string }
  /** An API object (a node, a pod, a row in a list): its live YAML, links and events. */
  | { type: 'object'; ref: ObjectRef }
  /** A control-plane component (etcd-0, kube-scheduler-1, …). */
  | { type: 'component'; name: string }
  /** A message; `seen` keeps its in-flight view once it has arrived. */
  | { type: 'message'; msgId: number; seen?: MessageInFlightView }
  /** A kube-apiserver request (its record is pinned in the request store). */
  | { type: 'request'; id: number };

export type Theme = 'dark' | 'light';

export type CentreTab = 'raft' | 'apiserver' | 'scheduler' | 'cluster' | 'events';
export type DockTab = 'terminal' | 'editor' | 'client';

export type TraceFilter = 'send' | 'deliver' | 'drop' | 'heartbeat' | 'timer' | 'persist' | 'fault';

export interface UiState {
  selection: Selection | null;
  /** The node inspector's iptables filter (a Service's inspector opens a node's rules filtered to its chain). */
  iptablesFilter: string;
  /** Members picked for "Partition selected". */
  partitionPick: string[];
  theme: Theme;
  traceFilters: Record<TraceFilter, boolean>;
  /** The last failed action, shown until the next one. */
  actionError: string | null;
  centreTab: CentreTab;
  /** The left dock: terminal, editor or the etcd client; and its width in px. */
  dockTab: DockTab;
  dockWidth: number;
  /** The record the last Step produced. */
  lastStep: TraceRecordView | null;
}

function initialTheme(): Theme {
  if (typeof window === 'undefined') return 'dark';
  const saved = window.localStorage?.getItem('kubeglass.theme');
  if (saved === 'dark' || saved === 'light') return saved;
  return window.matchMedia?.('(prefers-color-scheme: light)').matches ? 'light' : 'dark';
}

function saved<T extends string>(key: string, allowed: readonly T[], fallback: T): T {
  if (typeof window === 'undefined') return fallback;
  const v = window.localStorage?.getItem(key);
  return allowed.includes(v as T) ? (v as T) : fallback;
}

/** Dock width bounds, px; the default follows the window. */
export const DOCK_MIN = 300;
export const DOCK_MAX_FRACTION = 0.55;

export function defaultDockWidth(windowWidth: number): number {
  return Math.round(Math.min(560, Math.max(DOCK_MIN + 40, windowWidth * 0.3)));
}

export function clampDockWidth(w: number, windowWidth: number): number {
  return Math.round(Math.max(DOCK_MIN, Math.min(w, windowWidth * DOCK_MAX_FRACTION)));
}

function initialDockWidth(): number {
  if (typeof window === 'undefined') return 420;
  const v = Number(window.localStorage?.getItem('kubeglass.dockWidth'));
  return Number.isFinite(v) && v > 0 ? clampDockWidth(v, window.innerWidth) : defaultDockWidth(window.innerWidth);
}

export const useUi = create<UiState>()(() => ({
  selection: null,
  iptablesFilter: '',
  partitionPick: [],
  theme: initialTheme(),
  traceFilters: { send: false, deliver: true, drop: true, heartbeat: false, timer: false, persist: false, fault: true },
  actionError: null,
  centreTab: saved<CentreTab>('kubeglass.centreTab', ['raft', 'apiserver', 'scheduler', 'cluster', 'events'], 'raft'),
  dockTab: saved<DockTab>('kubeglass.dockTab', ['terminal', 'editor', 'client'], 'terminal'),
  dockWidth: initialDockWidth(),
  lastStep: null,
}));

export function select(selection: Selection | null): void {
  useUi.setState({ selection });
}

export function selectObject(ref: ObjectRef): void {
  const { group, resource, name } = ref;
  select({ type: 'object', ref: ref.namespace ? { group, resource, namespace: ref.namespace, name } : { group, resource, name } });
}

/** Opens node `node` in the inspector with its iptables rules filtered to `filter`. */
export function showNodeRules(node: string, filter: string): void {
  useUi.setState({ iptablesFilter: filter });
  selectObject({ group: '', resource: 'nodes', name: node });
}

export function setIptablesFilter(filter: string): void {
  useUi.setState({ iptablesFilter: filter });
}

/** The selected API object, if the selection is one. */
export const useSelectedObject = (): ObjectRef | null => useUi((s) => (s.selection?.type === 'object' ? s.selection.ref : null));

export function sameRef(a: ObjectRef | null | undefined, b: ObjectRef | null | undefined): boolean {
  return !!a && !!b && a.group === b.group && a.resource === b.resource && (a.namespace ?? '') === (b.namespace ?? '') && a.name === b.name;
}

export function togglePick(name: string): void {
  useUi.setState((s) => ({
    partitionPick: s.partitionPick.includes(name) ? s.partitionPick.filter((n) => n !== name) : [...s.partitionPick, name],
  }));
}

export function clearPicks(): void {
  useUi.setState({ partitionPick: [] });
}

export function setTheme(theme: Theme): void {
  window.localStorage?.setItem('kubeglass.theme', theme);
  useUi.setState({ theme });
}

export function toggleTraceFilter(f: TraceFilter): void {
  useUi.setState((s) => ({ traceFilters: { ...s.traceFilters, [f]: !s.traceFilters[f] } }));
}

export function setActionError(actionError: string | null): void {
  useUi.setState({ actionError });
}

export const useSelection = (): Selection | null => useUi((s) => s.selection);
export const useSelectedMember = (): string | null =>
  useUi((s) => (s.selection?.type === 'member' ? s.selection.name : null));
export const useIsPicked = (name: string): boolean => useUi((s) => s.partitionPick.includes(name));

export function setCentreTab(centreTab: CentreTab): void {
  window.localStorage?.setItem('kubeglass.centreTab', centreTab);
  useUi.setState({ centreTab });
}

export function setDockTab(dockTab: DockTab): void {
  window.localStorage?.setItem('kubeglass.dockTab', dockTab);
  useUi.setState({ dockTab });
}

export function setDockWidth(px: number): void {
  const dockWidth = clampDockWidth(px, window.innerWidth);
  window.localStorage?.setItem('kubeglass.dockWidth', String(dockWidth));
  useUi.setState({ dockWidth });
}
