import { describe, expect, it } from 'vitest';
import { etcdctlCommand, formatSpeed, formatVirtualTime } from './format';

describe('etcdctlCommand', () => {
  it('prints requests as etcdctl commands', () => {
    expect(etcdctlCommand({ op: 'put', key: '/a', value: 'hello world' })).toBe("etcdctl put /a 'hello world'");
    expect(etcdctlCommand({ op: 'get', key: '/a', prefix: true, serializable: true })).toBe('etcdctl get /a --prefix --consistency=s');
    expect(etcdctlCommand({ op: 'delete', key: '/a', prefix: true })).toBe('etcdctl del /a --prefix');
    expect(etcdctlCommand({ op: 'leaseGrant', ttl: 10 })).toBe('etcdctl lease grant 10');
    expect(etcdctlCommand({ op: 'transferLeader', to: 'etcd-2' }, (n) => (n === 'etcd-2' ? 'abc3' : undefined))).toBe('etcdctl move-leader abc3');
  });
});

describe('formatting', () => {
  it('formats virtual time and speed', () => {
    expect(formatVirtualTime(12_345.6)).toBe('12.346 s');
    expect(formatVirtualTime(123_456)).toBe('2:03.456');
    expect(formatSpeed(1000)).toBe('×1,000');
    expect(formatSpeed(0.1)).toBe('×0.1');
  });
});
