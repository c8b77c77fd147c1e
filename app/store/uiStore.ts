// UI-only state: what is selected, the partition being built, the theme and the
// timeline filters. Selecting a thing anywhere selects it everywhere.
import { create } from 'zustand';
import type { MessageInFlightView, TraceRecordView } from '../../engine/facade/types';

export type Selection =
  | { type: 'member'; name: string }
  /** A message; `seen` keeps its in-flight view once it has arrived. */
  | { type: 'message'; msgId: number; seen?: MessageInFlightView };

export type Theme = 'dark' | 'light';

export type TraceFilter = 'send' | 'deliver' | 'drop' | 'heartbeat' | 'timer' | 'persist' | 'fault';

export interface UiState {
  selection: Selection | null;
  /** Members picked for "Partition selected". */
  partitionPick: string[];
  theme: Theme;
  traceFilters: Record<TraceFilter, boolean>;
  /** The last failed action, shown until the next one. */
  actionError: string | null;
  centreTab: 'raft';
  /** The record the last Step produced. */
  lastStep: TraceRecordView | null;
}

function initialTheme(): Theme {
  if (typeof window === 'undefined') return 'dark';
  const saved = window.localStorage?.getItem('kubeglass.theme');
  if (saved === 'dark' || saved === 'light') return saved;
  return window.matchMedia?.('(prefers-color-scheme: light)').matches ? 'light' : 'dark';
}

export const useUi = create<UiState>()(() => ({
  selection: null,
  partitionPick: [],
  theme: initialTheme(),
  traceFilters: { send: false, deliver: true, drop: true, heartbeat: false, timer: false, persist: false, fault: true },
  actionError: null,
  centreTab: 'raft',
  lastStep: null,
}));

export function select(selection: Selection | null): void {
  useUi.setState({ selection });
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
