// Plain view data from the engine worker, merged from compact per-frame
// updates. Components read it through narrow selectors (one fact each) so a
// frame's update re-renders only what changed.
import { create } from 'zustand';
import type {
  EtcdMemberView,
  EtcdOpResult,
  KvEntryView,
  MessageInFlightView,
  TraceRecordView,
  WatchView,
} from '../../engine/facade/types';
import type { ActiveFault, ClockView, SessionInfo, ViewUpdate } from '../../engine/host/protocol';

/** Trace records kept in the UI (the engine keeps its own, larger ring). */
export const TRACE_KEEP = 2000;
/** Notable records kept (not heartbeats, timers or disk writes): a longer memory of what mattered. */
export const NOTABLE_KEEP = 600;

/** Heartbeats, ticks and fsyncs dominate a quiet cluster; everything else is notable. */
export function isRoutine(r: TraceRecordView): boolean {
  if (r.kind === 'timer' || r.kind === 'persist') return true;
  return r.type === 'MsgHeartbeat' || r.type === 'MsgHeartbeatResp';
}
/** Client results kept in the UI. */
export const OPS_KEEP = 200;
/** Events kept per watch. */
export const WATCH_EVENTS_KEEP = 200;

export interface WatchState {
  watchId: number;
  key: string;
  rangeEnd?: string;
  canceled?: string;
  events: WatchView['events'];
}

/** A moment worth a marker on the timeline: a fault, a command, a new leader. */
export interface Marker {
  t: number;
  kind: 'crash' | 'restart' | 'fault' | 'command' | 'leader';
  label: string;
  /** Trace record number, when it came from the trace. */
  n?: number;
}

export const MARKERS_KEEP = 200;
/** Commands that get no timeline marker. */
const UNMARKED_COMMANDS = new Set(['fault', 'speed', 'api', 'apiCancel', 'apiSend']);

export interface ViewState {
  info: SessionInfo | null;
  /** Set when the worker failed; the UI shows it. */
  fatal: string | null;
  /** Whether the first full update has arrived. */
  ready: boolean;
  clock: ClockView;
  /** Wall time (performance.now on the main thread) when `clock` arrived: for interpolating motion. */
  clockAt: number;
  memberOrder: string[];
  members: Record<string, EtcdMemberView>;
  inFlight: MessageInFlightView[];
  kv: { from: string | null; revision: number; compactRevision: number; keys: Record<string, KvEntryView>; total: number };
  partition: { groups: string[][]; blocked: [string, string][] };
  trace: TraceRecordView[];
  /** Recent records that are not routine (see isRoutine), kept longer than `trace`. */
  notable: TraceRecordView[];
  traceSkipped: number;
  opResults: EtcdOpResult[];
  watches: Record<number, WatchState>;
  components: { name: string; kind: string; up: boolean }[];
  markers: Marker[];
  /** The faults in effect, oldest first. */
  faults: ActiveFault[];
}

export const initialViewState: ViewState = {
  info: null,
  fatal: null,
  ready: false,
  clock: { virtualTime: 0, events: 0, speed: 1, playing: false, lagging: false, traceDigest: '0:00000000' },
  clockAt: 0,
  memberOrder: [],
  members: {},
  inFlight: [],
  kv: { from: null, revision: 0, compactRevision: 0, keys: {}, total: 0 },
  partition: { groups: [], blocked: [] },
  trace: [],
  notable: [],
  traceSkipped: 0,
  opResults: [],
  watches: {},
  components: [],
  markers: [],
  faults: [],
};

/** Merges one update into the state; pure, so it is tested without a worker. */
export function applyUpdate(s: ViewState, u: ViewUpdate, wallNow: number): Partial<ViewState> {
  const out: Partial<ViewState> = { clock: u.clock, clockAt: wallNow, ready: true };
  if (u.full) {
    out.members = {};
    out.kv = { from: null, revision: 0, compactRevision: 0, keys: {}, total: 0 };
    out.trace = [];
    out.notable = [];
    out.traceSkipped = 0;
    out.opResults = [];
    out.watches = {};
    out.markers = [];
  }
  const newMarkers: Marker[] = [];
  if (u.memberOrder) out.memberOrder = u.memberOrder;
  if (u.members || u.memberOrder) {
    const base = out.members ?? s.members;
    const order = u.memberOrder ?? s.memberOrder;
    const next: Record<string, EtcdMemberView> = {};
    for (const name of order) {
      const m = base[name];
      if (m) next[name] = m;
    }
    for (const m of u.members ?? []) {
      const before = base[m.name];
      if (m.role === 'leader' && (before?.role !== 'leader' || before.term !== m.term)) {
        newMarkers.push({ t: u.clock.virtualTime, kind: 'leader', label: `${m.name} leader, term ${m.term}` });
      }
      next[m.name] = m;
    }
    out.members = next;
  }
  if (u.inFlight) out.inFlight = u.inFlight;
  if (u.kv) {
    const keys = { ...(out.kv ?? s.kv).keys };
    for (const k of u.kv.removed) delete keys[k];
    for (const e of u.kv.changed) keys[e.key] = e;
    out.kv = { from: u.kv.from, revision: u.kv.revision, compactRevision: u.kv.compactRevision, keys, total: u.kv.total };
  }
  if (u.partition) out.partition = u.partition;
  if (u.trace && u.trace.length > 0) {
    const merged = (out.trace ?? s.trace).concat(u.trace);
    out.trace = merged.length > TRACE_KEEP ? merged.slice(merged.length - TRACE_KEEP) : merged;
    const fresh = u.trace.filter((r) => !isRoutine(r));
    if (fresh.length > 0) {
      const notable = (out.notable ?? s.notable).concat(fresh);
      out.notable = notable.length > NOTABLE_KEEP ? notable.slice(notable.length - NOTABLE_KEEP) : notable;
    }
  }
  for (const r of u.trace ?? []) {
    // Faults and crashes have their own records; of commands, mark only the client's requests
    // (not each API call: one kubectl command makes several, and they would bury the rest).
    const marked =
      r.kind === 'crash' || r.kind === 'restart' || r.kind === 'fault' || (r.kind === 'command' && !UNMARKED_COMMANDS.has(r.type ?? ''));
    if (marked) {
      newMarkers.push({ t: r.t, kind: r.kind as Marker['kind'], n: r.n, label: [r.kind, r.type, r.to, r.detail].filter(Boolean).join(' ') });
    }
  }
  if (newMarkers.length > 0) {
    newMarkers.sort((a, b) => a.t - b.t);
    const merged = (out.markers ?? s.markers).concat(newMarkers);
    out.markers = merged.length > MARKERS_KEEP ? merged.slice(merged.length - MARKERS_KEEP) : merged;
  }
  if (u.traceSkipped) out.traceSkipped = (out.traceSkipped ?? s.traceSkipped) + u.traceSkipped;
  if (u.opResults) {
    const byId = new Map((out.opResults ?? s.opResults).map((r) => [r.id, r]));
    for (const r of u.opResults) byId.set(r.id, r);
    const list = [...byId.values()].sort((a, b) => a.id - b.id);
    out.opResults = list.length > OPS_KEEP ? list.slice(list.length - OPS_KEEP) : list;
  }
  if (u.watches) {
    const watches = { ...(out.watches ?? s.watches) };
    for (const w of u.watches) {
      const prev = watches[w.watchId];
      const events = (prev?.events ?? []).concat(w.newEvents);
      const ws: WatchState = {
        watchId: w.watchId,
        key: w.key,
        events: events.length > WATCH_EVENTS_KEEP ? events.slice(events.length - WATCH_EVENTS_KEEP) : events,
      };
      if (w.rangeEnd !== undefined) ws.rangeEnd = w.rangeEnd;
      if (w.canceled !== undefined) ws.canceled = w.canceled;
      watches[w.watchId] = ws;
    }
    out.watches = watches;
  }
  if (u.components) out.components = u.components;
  if (u.faults) out.faults = u.faults;
  else if (u.full) out.faults = [];
  if (u.engineError) out.fatal = `The simulation stopped: the engine threw ${u.engineError}. This is a bug; the trace up to here is kept.`;
  return out;
}

export const useView = create<ViewState>()(() => initialViewState);

export function receiveUpdate(u: ViewUpdate): void {
  useView.setState((s) => applyUpdate(s, u, performance.now()));
}

// ---- narrow selectors ------------------------------------------------------

export const useMember = (name: string | null): EtcdMemberView | undefined =>
  useView((s) => (name ? s.members[name] : undefined));
export const useMemberOrder = (): string[] => useView((s) => s.memberOrder);
export const useClock = (): ClockView => useView((s) => s.clock);
export const usePlaying = (): boolean => useView((s) => s.clock.playing);
export const useSpeed = (): number => useView((s) => s.clock.speed);
export const useInfo = (): SessionInfo | null => useView((s) => s.info);
export const usePartition = () => useView((s) => s.partition);
export const useKv = () => useView((s) => s.kv);
export const useOpResults = (): EtcdOpResult[] => useView((s) => s.opResults);
export const useWatches = (): Record<number, WatchState> => useView((s) => s.watches);
export const useTrace = (): TraceRecordView[] => useView((s) => s.trace);
export const useFaults = (): ActiveFault[] => useView((s) => s.faults);
/** The leader's name, as the first up member that believes itself leader. */
export const useLeaderName = (): string | null =>
  useView((s) => {
    for (const name of s.memberOrder) if (s.members[name]?.role === 'leader') return name;
    return null;
  });

/** Virtual time now, extrapolated from the last update while playing (smooth motion between posts). */
export function estimateVirtualTime(s: Pick<ViewState, 'clock' | 'clockAt'>, wallNow: number): number {
  const { clock } = s;
  if (!clock.playing) return clock.virtualTime;
  // Never run ahead of the worker by more than a couple of frames.
  const ahead = Math.min(Math.max(0, wallNow - s.clockAt), 40);
  return clock.virtualTime + ahead * clock.speed;
}
