import { describe, expect, it } from 'vitest';
import type { ActiveFault } from '../../engine/host/protocol';
import { actionName, faultActions } from './actions';

const active = (id: number, fault: ActiveFault['fault'], targets: string[]): ActiveFault => ({ id, since: 0, fault, summary: '', targets });

describe('faultActions', () => {
  it('a healthy node can be lost, partitioned, its kubelet restarted or stopped', () => {
    const a = faultActions({ type: 'node', name: 'node-1' }, { up: true, faults: [] });
    expect(a.map((x) => x.fault)).toEqual([
      { action: 'node-loss', target: 'node-1' },
      { action: 'partition-node', target: 'node-1' },
      { action: 'kubelet-restart', target: 'node-1' },
      { action: 'crash', target: 'node-1' },
    ]);
    expect(a.every((x) => x.breaks)).toBe(true);
    expect(actionName(a[0]!, { type: 'node', name: 'node-1' })).toBe('Lose the node node-1');
  });
  it('a lost node offers only to bring it back; a partitioned one to reconnect; a stopped kubelet to start', () => {
    const lost = faultActions({ type: 'node', name: 'node-2' }, { up: false, faults: [active(4, { action: 'node-loss', target: 'node-2' }, ['node-2'])] });
    expect(lost).toMatchObject([{ label: 'Bring the machine back', fault: { action: 'heal', id: 4 }, breaks: false }]);
    const cut = faultActions({ type: 'node', name: 'node-2' }, { up: false, faults: [active(5, { action: 'partition-node', target: 'node-2' }, ['node-2']), active(6, { action: 'node-loss', target: 'node-3' }, ['node-3'])] });
    expect(cut.map((x) => x.fault)).toEqual([{ action: 'node-loss', target: 'node-2' }, { action: 'heal', id: 5 }, { action: 'restart', target: 'node-2' }]);
  });
  it('components crash and restart; an API server is cut off from etcd and reconnected', () => {
    const t = { type: 'component' as const, name: 'kube-apiserver-0', kind: 'kube-apiserver' };
    expect(faultActions(t, { up: true, faults: [] }).map((x) => x.fault)).toEqual([{ action: 'crash', target: 'kube-apiserver-0' }, { action: 'cut', from: 'kube-apiserver-0', to: 'etcd' }]);
    const cut = active(2, { action: 'cut', from: 'kube-apiserver-0', to: 'etcd' }, ['kube-apiserver-0', 'etcd-0']);
    expect(faultActions(t, { up: false, faults: [cut] }).map((x) => x.label)).toEqual(['Restart kube-apiserver-0', 'Reconnect to etcd']);
    expect(faultActions({ type: 'component', name: 'kube-scheduler-0', kind: 'kube-scheduler' }, { up: true, faults: [] }).map((x) => x.label)).toEqual(['Crash kube-scheduler-0']);
  });
});
