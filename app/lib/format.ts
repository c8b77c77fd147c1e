// Text shown to people: virtual times, etcdctl-style command lines.
import type { EtcdOp } from '../../engine/facade/types';

/** 12345.6 -> "12.346 s"; over a minute "2:03.456". */
export function formatVirtualTime(ms: number): string {
  const totalSec = ms / 1000;
  if (totalSec < 60) return `${totalSec.toFixed(3)} s`;
  const min = Math.floor(totalSec / 60);
  const sec = totalSec - min * 60;
  return `${min}:${sec.toFixed(3).padStart(6, '0')}`;
}

/** Short form for tables: "1.234s". */
export function formatT(ms: number): string {
  return `${(ms / 1000).toFixed(3)}s`;
}

export function formatSpeed(speed: number): string {
  return `×${speed >= 1 ? speed.toLocaleString('en-US') : speed}`;
}

function shellWord(s: string): string {
  return /^[\w./:@%+=-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * The etcdctl command a user would type for this request. `memberId` turns a
 * member name into its hex id (etcdctl move-leader takes the id).
 */
export function etcdctlCommand(op: EtcdOp, memberId?: (name: string) => string | undefined): string {
  switch (op.op) {
    case 'put':
      return ['etcdctl put', shellWord(op.key), shellWord(op.value), op.lease ? `--lease=${op.lease.toString(16)}` : '', op.prevKv ? '--prev-kv' : '']
        .filter(Boolean)
        .join(' ');
    case 'get':
      return [
        'etcdctl get',
        shellWord(op.key),
        op.rangeEnd ? shellWord(op.rangeEnd) : '',
        op.prefix ? '--prefix' : '',
        op.serializable ? '--consistency=s' : '',
        op.revision ? `--rev=${op.revision}` : '',
        op.limit ? `--limit=${op.limit}` : '',
        op.keysOnly ? '--keys-only' : '',
        op.countOnly ? '--count-only' : '',
      ]
        .filter(Boolean)
        .join(' ');
    case 'delete':
      return ['etcdctl del', shellWord(op.key), op.rangeEnd ? shellWord(op.rangeEnd) : '', op.prefix ? '--prefix' : '', op.prevKv ? '--prev-kv' : '']
        .filter(Boolean)
        .join(' ');
    case 'compact':
      return `etcdctl compact ${op.revision}`;
    case 'leaseGrant':
      return `etcdctl lease grant ${op.ttl}`;
    case 'leaseRevoke':
      return `etcdctl lease revoke ${op.id.toString(16)}`;
    case 'leaseKeepAlive':
      return `etcdctl lease keep-alive --once ${op.id.toString(16)}`;
    case 'transferLeader':
      return `etcdctl move-leader ${memberId?.(op.to) ?? op.to}`;
    case 'memberAdd':
      return op.name ? `etcdctl member add ${op.name} --peer-urls=http://${op.name}:2380` : 'etcdctl member add';
    case 'memberRemove':
      return `etcdctl member remove ${memberId?.(op.name) ?? op.name}`;
  }
}
