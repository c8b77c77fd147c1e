// TEMPORARY DEV FIXTURE — delete before finishing (stand-in until the facade lands).
import type { Command, EngineState, EtcdClusterView, EtcdMemberView, EtcdOpResult, MessageInFlightView, TraceRecordView, WatchView } from '../facade/types';
export class Engine {
  t = 0; ev = 0; n = 0; tr: TraceRecordView[] = []; msgs: MessageInFlightView[] = []; id = 1; ops: EtcdOpResult[] = [];
  members: EtcdMemberView[] = [0, 1, 2].map((i) => ({ name: `etcd-${i}`, raftId: i + 1, memberId: (0x8e9e + i).toString(16), up: true, role: i === 0 ? 'leader' : 'follower', term: 2, vote: 'etcd-0', leader: 'etcd-0', commitIndex: 5, appliedIndex: 5, lastLogIndex: 5, firstLogIndex: 1, snapshotIndex: 0, electionElapsed: 0, electionTimeout: 12, fsyncMs: 1, log: [1, 2, 3, 4, 5].map((x) => ({ index: x, term: x < 4 ? 1 : 2, kind: 'normal' as const, summary: `PUT /k${x}` })), revision: 5, progress: i === 0 ? { 'etcd-1': { match: 5, next: 6, state: 'StateReplicate' }, 'etcd-2': { match: 5, next: 6, state: 'StateReplicate' } } : undefined }));
  kv = [{ key: '/foo', value: 'bar', createRevision: 2, modRevision: 4, version: 2, lease: 0 }];
  static create(_o: unknown) { return new Engine(); }
  exec(c: Command) { this.rec('command', { type: c.type }); if (c.type === 'etcdOp') this.ops.push({ id: this.id++, op: c.op, issuedAt: this.t, doneAt: this.t + 3, ok: true, text: 'OK' }); if (c.type === 'fault' && c.fault.action === 'crash') { const m = this.members.find((x) => x.name === (c.fault as { target: string }).target)!; m.up = false; m.role = 'down'; } return { ok: true as const }; }
  rec(kind: string, r: Partial<TraceRecordView>) { const x = { n: this.n++, t: this.t, kind, ...r }; this.tr.push(x); if (this.tr.length > 5000) this.tr.shift(); }
  advance(ms: number) { const end = this.t + ms; while (this.t < end) { this.t = Math.min(end, Math.floor(this.t / 10) * 10 + 10); this.tickAt(); } }
  tickAt() { this.ev++; this.msgs = this.msgs.filter((m) => { if (m.arriveAt <= this.t) { this.rec('deliver', { from: m.from, to: m.to, type: m.type, msgId: m.msgId }); if (!m.type.endsWith('Resp')) { const id = this.id++; this.msgs.push({ ...m, msgId: id, from: m.to, to: m.from, type: m.type + 'Resp', sentAt: this.t, arriveAt: this.t + 30 }); } return false; } return true; });
    if (this.t % 100 === 0) for (const to of ['etcd-1', 'etcd-2']) { const id = this.id++; const type = this.t % 500 === 0 ? 'MsgApp' : 'MsgHeartbeat'; this.msgs.push({ msgId: id, from: 'etcd-0', to, type, sentAt: this.t, arriveAt: this.t + 30 + (to === 'etcd-2' ? 15 : 0), term: 2 }); this.rec('send', { from: 'etcd-0', to, type, msgId: id }); if (type === 'MsgApp') { for (const m of this.members) { m.lastLogIndex++; m.log.push({ index: m.lastLogIndex, term: 2, kind: 'normal', summary: 'PUT /x' }); m.log = m.log.slice(-40); m.commitIndex = m.lastLogIndex - (m.name === 'etcd-2' ? 1 : 0); m.appliedIndex = m.commitIndex; } } }
    for (const m of this.members) m.electionElapsed = (this.t / 100) % 12 | 0; }
  stepEvent() { this.advance(10); return this.tr[this.tr.length - 1] ?? null; }
  state(): EngineState { return { virtualTime: this.t, seed: 1, speed: 1, components: [...this.members.map((m) => ({ name: m.name, kind: 'etcd', up: m.up })), { name: 'etcd-client-0', kind: 'etcd-client', up: true }], traceDigest: `${this.n}:abc`, events: this.ev }; }
  etcdView(): EtcdClusterView { return { members: structuredClone(this.members), inFlight: this.msgs.slice(), kv: { from: 'etcd-0', revision: 5, compactRevision: 0, keys: this.kv }, partition: [], blocked: [] }; }
  trace(since: number, limit = 1e9) { return this.tr.filter((r) => r.n > since).slice(0, limit); }
  opResults(since = 0) { return this.ops.filter((o) => o.id > since); }
  watches(): WatchView[] { return []; }
}
