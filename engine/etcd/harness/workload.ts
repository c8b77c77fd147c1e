// The workload: k closed-loop clients over a few contended keys, each issuing
// one request at a time with a seeded think time in between, through
// engine.exec only (so the command log replays the run). It records the
// client-side history: linearizable operations in the etcd model's terms,
// serializable reads for their own checker.
import type { Engine } from '../../facade/engine';
import type { Rng } from '../../sim/rng';
import type { CallRecord } from '../client/client';
import type {
  DeleteRangeResponse,
  KeyValue as RpcKeyValue,
  LeaseGrantResponse,
  PutResponse,
  RangeResponse,
  TxnRequest as RpcTxnRequest,
  TxnResponse as RpcTxnResponse,
} from '../api/rpc';
import type { RequestBodies, RequestType } from '../server/messages';
import type { EtcdOperation, EtcdRequest, EtcdResponse, TxnOpResponse } from '../../sim/checkers/etcdModel';
import type { KeyValue } from '../../sim/checkers/etcdTypes';
import type { SerializableRead } from '../../sim/checkers/serializableReads';
import { assertNever } from '../../sim/assert';
import { registerClass } from '../../sim/serial';
import { OP_KINDS, type OpKind, type WorkloadKnobs } from './knobs';

/** Lease TTL in seconds: far beyond a run, so no lease expires (the model has no clock). */
export const LEASE_TTL = 3600;
/** First lease id the harness grants; ids are explicit and unique in a run. */
const FIRST_LEASE_ID = 7_000_001;

export function keyName(i: number): string {
  return `/k/${i}`;
}

/** etcd's KeyValue (lease 0 = none) as the checkers' KeyValue (lease absent = none). */
export function toCheckerKv(kv: RpcKeyValue): KeyValue {
  const out: KeyValue = { key: kv.key, value: kv.value, createRevision: kv.createRevision, modRevision: kv.modRevision, version: kv.version };
  if (kv.lease) out.lease = kv.lease;
  return out;
}

export interface BigValueGate {
  wantsBigValue(): boolean;
}

interface Issued {
  client: number;
  callId: number;
  kind: OpKind;
  key: string;
  /** The model's request (serializable reads have none: they go to their own checker). */
  input: EtcdRequest | null;
  prevKv: boolean;
}

interface ClientState {
  name: string;
  index: number;
  /** When it may issue its next request (if idle). */
  nextAt: number;
  busy: Issued | null;
  seq: number;
}

export class Workload {
  private readonly clients: ClientState[] = [];
  private readonly done: { op: Issued; call: CallRecord | undefined }[] = [];
  private readonly outstanding: Issued[] = [];
  private stopped = false;
  private nextLease = FIRST_LEASE_ID;
  /** Leases granted (or maybe granted): candidates for put-with-lease and revoke. */
  private leases: number[] = [];
  /** The latest value and mod revision seen per key: what compare-and-set compares with. */
  private seen = new Map<string, { value: string; mod: number }>();
  private readonly totalWeight: number;
  issued = 0;
  /** When set, big values are drawn only while it wants one (the Figure 8 nemesis does, at one step). */
  bigValueGate: BigValueGate | null = null;

  constructor(
    private readonly engine: Engine,
    private readonly rng: Rng,
    readonly knobs: WorkloadKnobs,
    private readonly members: readonly string[],
    startAt: number,
  ) {
    for (let i = 1; i <= knobs.clients; i++) {
      this.clients.push({ name: `etcd-client-${i}`, index: i, nextAt: startAt + rng.float() * 50, busy: null, seq: 0 });
    }
    this.totalWeight = OP_KINDS.reduce((s, k) => s + knobs.weights[k], 0);
  }

  get clientNames(): string[] {
    return this.clients.map((c) => c.name);
  }

  /** When an idle client next wants to issue; Infinity when none will. */
  nextActionTime(): number {
    if (this.stopped) return Infinity;
    let t = Infinity;
    for (const c of this.clients) if (!c.busy && c.nextAt < t) t = c.nextAt;
    return t;
  }

  /** Issues the requests that are due at `now`. */
  act(now: number): void {
    if (this.stopped) return;
    for (const c of this.clients) if (!c.busy && c.nextAt <= now) this.issue(c);
  }

  /** No new requests from now on (requests in flight still complete). */
  stop(): void {
    this.stopped = true;
  }

  /** Call after every kernel step: notices finished calls and schedules the next request. */
  poll(now: number): void {
    for (const c of this.clients) {
      const op = c.busy;
      if (!op) continue;
      const call = this.engine.call(op.callId, c.name);
      if (!call?.outcome) continue;
      c.busy = null;
      this.complete(op, call);
      if (!this.stopped) c.nextAt = now + this.rng.float() * this.knobs.thinkMaxMs;
    }
  }

  private complete(op: Issued, call: CallRecord): void {
    this.done.push({ op, call });
    const o = call.outcome;
    if (o?.status !== 'ok') return;
    // Remember what we saw, for compare-and-set.
    const body = o.body as Partial<RangeResponse & RpcTxnResponse>;
    const note = (kv: RpcKeyValue | undefined) => {
      if (kv) this.seen.set(kv.key, { value: kv.value, mod: kv.modRevision });
    };
    if (op.kind === 'get' || op.kind === 'getSerializable') note(body.kvs?.[0]);
    if (op.kind === 'cas' && body.succeeded === false) note(body.responses?.[0]?.responseRange?.kvs[0]);
  }

  private pickKind(): OpKind {
    let x = this.rng.float() * this.totalWeight;
    for (const k of OP_KINDS) {
      x -= this.knobs.weights[k];
      if (x < 0) return k;
    }
    return 'put';
  }

  private issue(c: ClientState): void {
    const rng = this.rng;
    let kind = this.pickKind();
    if ((kind === 'putWithLease' || kind === 'leaseRevoke') && this.leases.length === 0) kind = 'leaseGrant';
    const key = keyName(rng.int(0, this.knobs.keys));
    const value = () => {
      const v = `c${c.index}.${++c.seq}`;
      const big = rng.chance(this.knobs.bigValues) && (this.bigValueGate?.wantsBigValue() ?? true);
      return big ? v + ':' + 'x'.repeat(this.knobs.bigValueBytes) : v;
    };
    const prevKv = rng.chance(this.knobs.prevKv);
    const endpoint = rng.chance(this.knobs.randomEndpoint) ? rng.pick(this.members) : undefined;
    let input: EtcdRequest | null;
    let type: RequestType;
    let body: RequestBodies[RequestType];
    let ep = endpoint;
    switch (kind) {
      case 'put': {
        const v = value();
        input = { type: 'put', key, value: v };
        type = 'PutRequest';
        body = { key, value: v, prevKv: prevKv || undefined };
        break;
      }
      case 'putWithLease': {
        const v = value();
        const lease = rng.pick(this.leases);
        input = { type: 'put', key, value: v, leaseId: lease };
        type = 'PutRequest';
        body = { key, value: v, lease, prevKv: prevKv || undefined };
        break;
      }
      case 'get':
        input = { type: 'get', key };
        type = 'RangeRequest';
        body = { key };
        break;
      case 'getSerializable':
        input = null;
        type = 'RangeRequest';
        body = { key, serializable: true };
        ep = rng.pick(this.members); // a follower's stale view is the point
        break;
      case 'delete':
        input = { type: 'delete', key };
        type = 'DeleteRangeRequest';
        body = { key, prevKv: prevKv || undefined };
        break;
      case 'cas': {
        const seen = this.seen.get(key);
        const v = value();
        const onValue = rng.chance(0.5);
        let req: RpcTxnRequest;
        if (onValue) {
          // Compare with the value last seen (often stale: contention), else a made-up one.
          const want = seen && rng.chance(0.8) ? seen.value : `c${c.index}.${c.seq - 1}`;
          input = { type: 'txn', compare: { key, target: 'VALUE', result: 'EQUAL', value: want }, onSuccess: { type: 'put', key, value: v }, onFailure: { type: 'get', key } };
          req = { compare: [{ key, target: 'VALUE', result: 'EQUAL', value: want }], success: [{ requestPut: { key, value: v } }], failure: [{ requestRange: { key } }] };
        } else {
          // mod revision 0 = "the key does not exist" (create-if-absent).
          const want = seen && rng.chance(0.8) ? seen.mod : 0;
          input = { type: 'txn', compare: { key, target: 'MOD', result: 'EQUAL', value: want }, onSuccess: { type: 'put', key, value: v }, onFailure: { type: 'get', key } };
          req = { compare: [{ key, target: 'MOD', result: 'EQUAL', modRevision: want }], success: [{ requestPut: { key, value: v } }], failure: [{ requestRange: { key } }] };
        }
        type = 'TxnRequest';
        body = req;
        break;
      }
      case 'leaseGrant': {
        const id = this.nextLease++;
        this.leases.push(id);
        input = { type: 'leaseGrant', id, ttl: LEASE_TTL };
        type = 'LeaseGrantRequest';
        body = { TTL: LEASE_TTL, ID: id };
        break;
      }
      case 'leaseRevoke': {
        const id = rng.pick(this.leases);
        input = { type: 'leaseRevoke', id };
        type = 'LeaseRevokeRequest';
        body = { ID: id };
        break;
      }
      default:
        return assertNever(kind, 'op kind');
    }
    const r = this.engine.exec({ type: 'etcd', client: c.name, request: { type, body, endpoint: ep } });
    if (!r.ok) throw new Error(`harness: exec failed: ${r.error}`);
    const op: Issued = { client: c.index, callId: r.result as number, kind, key, input, prevKv };
    c.busy = op;
    this.issued++;
  }

  /** Every call's record, finished or not (for statistics). */
  calls(): { kind: OpKind; status: 'ok' | 'error' | 'unknown' | 'pending' }[] {
    const out: { kind: OpKind; status: 'ok' | 'error' | 'unknown' | 'pending' }[] = this.done.map(({ op, call }) => ({ kind: op.kind, status: call?.outcome?.status ?? 'pending' }));
    for (const c of this.clients) if (c.busy) out.push({ kind: c.busy.kind, status: 'pending' });
    return out;
  }

  /** The linearizable part of the history, in the etcd model's terms. */
  linearizableHistory(): EtcdOperation[] {
    const ops: EtcdOperation[] = [];
    const add = (op: Issued, call: CallRecord | undefined) => {
      if (!op.input) return;
      const issuedAt = call?.issuedAt ?? 0;
      const o = call?.outcome;
      if (!o || o.status === 'unknown') {
        // It may take effect at any time after its call (even after the
        // client gave up: the proposal may still be in some log), or never.
        ops.push({ clientId: op.client, input: op.input, call: issuedAt, output: undefined, return: Infinity });
        return;
      }
      const output: EtcdResponse = o.status === 'error' ? { type: 'error', error: o.error.message } : toModelResponse(op, o.body);
      ops.push({ clientId: op.client, input: op.input, call: issuedAt, output, return: call.doneAt ?? Infinity });
    };
    for (const { op, call } of this.done) add(op, call);
    for (const c of this.clients) if (c.busy) add(c.busy, this.engine.call(c.busy.callId, c.name));
    return ops;
  }

  /** Serializable reads that got an answer. */
  serializableReads(): SerializableRead[] {
    const out: SerializableRead[] = [];
    for (const { op, call } of this.done) {
      if (op.kind !== 'getSerializable' || call?.outcome?.status !== 'ok' || call.doneAt === undefined) continue;
      const body = call.outcome.body as RangeResponse;
      const read: SerializableRead = {
        clientId: op.client,
        member: call.servedBy ?? '?',
        key: op.key,
        call: call.issuedAt,
        return: call.doneAt,
        header: { revision: body.header.revision },
      };
      const kv = body.kvs[0];
      if (kv) read.kv = toCheckerKv(kv);
      out.push(read);
    }
    return out;
  }
}

/** An etcd API response as the model's response to `op`. */
function toModelResponse(op: Issued, body: unknown): EtcdResponse {
  const input = op.input!;
  switch (input.type) {
    case 'put': {
      const b = body as PutResponse;
      const r: EtcdResponse = { type: 'put', header: { revision: b.header.revision } };
      if (op.prevKv) r.prevKv = b.prevKv ? toCheckerKv(b.prevKv) : null;
      return r;
    }
    case 'get': {
      const b = body as RangeResponse;
      const r: EtcdResponse = { type: 'get', header: { revision: b.header.revision } };
      const kv = b.kvs[0];
      if (kv) r.kv = toCheckerKv(kv);
      return r;
    }
    case 'delete': {
      const b = body as DeleteRangeResponse;
      const r: EtcdResponse = { type: 'delete', header: { revision: b.header.revision }, deleted: b.deleted };
      if (op.prevKv) r.prevKv = b.prevKvs[0] ? toCheckerKv(b.prevKvs[0]) : null;
      return r;
    }
    case 'txn': {
      const b = body as RpcTxnResponse;
      const responses: TxnOpResponse[] = [];
      const first = b.responses[0];
      if (b.succeeded) responses.push({ type: 'put' });
      else {
        const kv = first?.responseRange?.kvs[0];
        responses.push(kv ? { type: 'get', kv: toCheckerKv(kv) } : { type: 'get' });
      }
      return { type: 'txn', header: { revision: b.header.revision }, succeeded: b.succeeded, responses };
    }
    case 'leaseGrant': {
      const b = body as LeaseGrantResponse;
      return { type: 'leaseGrant', header: { revision: b.header.revision }, id: b.ID, ttl: b.TTL };
    }
    case 'leaseRevoke':
      return { type: 'leaseRevoke', header: { revision: (body as { header: { revision: number } }).header.revision } };
    default:
      return assertNever(input, 'etcd request');
  }
}

registerClass('harness.Workload', Workload);
