// Results printed the way etcdctl v3 prints them (etcdctl/ctlv3/command/printer_simple.go).
import { binaryToUtf8 } from '../etcd/api/bytes';
import type { DeleteRangeResponse, KeyValue, LeaseGrantResponse, LeaseKeepAliveResponse, RangeResponse } from '../etcd/api/rpc';
import type { CallOutcome } from '../etcd/client/client';
import type { EtcdOp } from './types';

/** Printed by member add/remove; matches the engine's fixed cluster id. */
const CLUSTER_ID_HEX = (0x1c4d6f8a2b3e5d7 % 2 ** 48).toString(16);

export function formatOpResult(op: EtcdOp, outcome: CallOutcome): string {
  if (outcome.status !== 'ok') return `Error: ${outcome.error.message}`;
  const body = outcome.body;
  switch (op.op) {
    case 'put': {
      const prev = (body as { prevKv?: KeyValue }).prevKv;
      return prev ? `OK\n${binaryToUtf8(prev.key)}\n${binaryToUtf8(prev.value)}` : 'OK';
    }
    case 'get': {
      const r = body as RangeResponse;
      if (op.countOnly) return String(r.count);
      return r.kvs.map((kv) => (op.keysOnly ? binaryToUtf8(kv.key) : `${binaryToUtf8(kv.key)}\n${binaryToUtf8(kv.value)}`)).join('\n');
    }
    case 'delete': {
      const r = body as DeleteRangeResponse;
      const lines = [String(r.deleted)];
      for (const kv of r.prevKvs ?? []) lines.push(binaryToUtf8(kv.key), binaryToUtf8(kv.value));
      return lines.join('\n');
    }
    case 'compact':
      return `compacted revision ${op.revision}`;
    case 'leaseGrant': {
      const r = body as LeaseGrantResponse;
      return `lease ${r.ID.toString(16)} granted with TTL(${r.TTL}s)`;
    }
    case 'leaseRevoke':
      return `lease ${op.id.toString(16)} revoked`;
    case 'leaseKeepAlive': {
      const r = body as LeaseKeepAliveResponse;
      return r.TTL > 0 ? `lease ${op.id.toString(16)} keepalived with TTL(${r.TTL})` : `lease ${op.id.toString(16)} expired or revoked.`;
    }
    case 'transferLeader':
      return `Leadership transferred to ${op.to}`;
    case 'memberAdd': {
      const m = (body as { member?: { ID: number; name: string } }).member;
      return m ? `Member ${m.ID.toString(16)} added to cluster ${CLUSTER_ID_HEX}\n\nETCD_NAME="${m.name}"\nETCD_INITIAL_CLUSTER_STATE="existing"` : 'Member added';
    }
    case 'memberRemove': {
      const m = (body as { member?: { ID: number } }).member;
      return `Member ${m ? m.ID.toString(16) : op.name} removed from cluster ${CLUSTER_ID_HEX}`;
    }
  }
}
