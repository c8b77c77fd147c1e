// Helpers for the etcd state-machine tests.
import { isEtcdError, type EtcdError } from '../api/errors';
import type { InternalRaftRequest, RaftResponse } from '../api/rpc';
import { EtcdStateMachine, type ApplyResult, type StateMachineOptions } from './applier';

export type RequestBody = Omit<InternalRaftRequest, 'header'>;

/** A state machine plus a counter for request ids and a virtual clock. */
export class TestMember {
  sm: EtcdStateMachine;
  nextId = 1;
  now = 0;
  term = 1;

  constructor(opts: Partial<StateMachineOptions> = {}) {
    this.sm = new EtcdStateMachine({ clusterId: 100, memberId: 7, ...opts });
  }

  applyFull(body: RequestBody): ApplyResult {
    return this.sm.apply({ header: { id: this.nextId++ }, ...body }, this.term, this.now);
  }

  apply(body: RequestBody): RaftResponse | EtcdError {
    return this.applyFull(body).response;
  }

  /** Applies and fails the test on an error. */
  ok<T extends RaftResponse = RaftResponse>(body: RequestBody): T {
    const r = this.apply(body);
    if (isEtcdError(r)) throw new Error(`unexpected error: ${r.message}`);
    return r as T;
  }

  put(key: string, value: string, extra: Record<string, unknown> = {}): number {
    return this.ok({ put: { key, value, ...extra } }).header.revision;
  }
}

export function must<T>(x: T | EtcdError): T {
  if (isEtcdError(x)) throw new Error(`unexpected error: ${x.message}`);
  return x;
}
