// Small helpers shared by the raft modules (upstream util.go).
import type { Entry, HardState, Message, MessageType, RaftId, RaftTraceEvent, Snapshot } from './types';

/** Trace arrays are drained by the caller; if nobody does, only the newest events are kept. */
export const traceCap = 8192;

/** Appends a trace event, dropping the older half once the cap is reached. */
export function pushTrace(trace: RaftTraceEvent[], ev: RaftTraceEvent): void {
  if (trace.length >= traceCap) trace.splice(0, traceCap >> 1);
  trace.push(ev);
}

export function assertNever(x: never): never {
  throw new Error(`raft: unexpected value ${String(x)}`);
}

/** Upstream panics: an exception means a bug (or a corrupted log), never an expected failure. */
export function panic(message: string): never {
  throw new Error(`raft: ${message}`);
}

export function isLocalMsg(t: MessageType): boolean {
  return t === 'MsgHup' || t === 'MsgBeat' || t === 'MsgUnreachable' || t === 'MsgSnapStatus' || t === 'MsgCheckQuorum';
}

export function isResponseMsg(t: MessageType): boolean {
  return t === 'MsgAppResp' || t === 'MsgVoteResp' || t === 'MsgHeartbeatResp' || t === 'MsgUnreachable' || t === 'MsgPreVoteResp';
}

export function voteRespMsgType(t: MessageType): MessageType {
  switch (t) {
    case 'MsgVote':
      return 'MsgVoteResp';
    case 'MsgPreVote':
      return 'MsgPreVoteResp';
    default:
      return panic(`not a vote message: ${t}`);
  }
}

/**
 * Shared, frozen empty list used wherever an empty Entry[] is handed out on a
 * hot path (Ready.entries, MsgApp.entries ...): saves an allocation per message.
 * Frozen so an accidental push throws instead of corrupting every holder.
 */
export const noEntries: Entry[] = Object.freeze([]) as unknown as Entry[];

/** A message with every field at its zero value (one hidden class for all messages). */
export function newMessage(type: MessageType, to: RaftId, from: RaftId = 0): Message {
  return {
    type,
    to,
    from,
    term: 0,
    logTerm: 0,
    index: 0,
    entries: noEntries,
    commit: 0,
    snapshot: undefined,
    reject: false,
    rejectHint: 0,
    context: '',
  };
}

/** Size of an entry for flow control: the length of its payload (our stand-in for proto Size()). */
export function entrySize(e: Entry): number {
  return e.data.length;
}

/** Payload size as upstream PayloadSize (used for the uncommitted-size quota). */
export function payloadSize(e: Entry): number {
  return e.data.length;
}

export function isEmptyHardState(hs: HardState): boolean {
  return hs.term === 0 && hs.vote === 0 && hs.commit === 0;
}

export function isHardStateEqual(a: HardState, b: HardState): boolean {
  return a.term === b.term && a.vote === b.vote && a.commit === b.commit;
}

export function isEmptySnap(s: Snapshot | undefined): boolean {
  return s === undefined || s.metadata.index === 0;
}

export function emptySnapshot(): Snapshot {
  return { metadata: { index: 0, term: 0, confState: { voters: [], learners: [] } }, data: '' };
}

/** MustSync: whether the Ready's hard state/entries require a synchronous write (upstream node.go). */
export function mustSync(st: HardState, prev: HardState, entsnum: number): boolean {
  return entsnum !== 0 || st.vote !== prev.vote || st.term !== prev.term;
}

export function min(a: number, b: number): number {
  return a < b ? a : b;
}

export function max(a: number, b: number): number {
  return a > b ? a : b;
}
