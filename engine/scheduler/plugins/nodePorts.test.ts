import { describe, expect, it } from 'vitest';
import type { ContainerPort, Pod } from '../framework/api';
import { CycleState } from '../framework/cycleState';
import { NodeInfo } from '../framework/nodeInfo';
import { makeNode, makePod, nodeInfoOf } from '../testing/fixtures';
import { ERR_REASON_NODE_PORTS, isSchedulableAfterPodDeleted, nodePortsFit, NodePorts } from './nodePorts';

/** newPod("host", "PROTO/ip/port", ...) as in the upstream test. */
function newPod(host: string, ...hostPortInfos: string[]): Pod {
  const ports: ContainerPort[] = hostPortInfos.map((s) => {
    const [protocol, hostIP, port] = s.split('/');
    return { containerPort: Number(port), hostPort: Number(port), hostIP, protocol };
  });
  return makePod(`pod-${host}-${hostPortInfos.join('-')}`, { nodeName: host, containers: [{ name: 'c', image: 'img', ports }] });
}

function newNodeInfo(...hostPortInfos: string[]): NodeInfo {
  return nodeInfoOf(makeNode('m1'), [newPod('m1', ...hostPortInfos)]);
}

// Port of nodeports/node_ports_test.go (TestNodePorts).
describe('NodePorts PreFilter + Filter', () => {
  const rejected = { code: 'Unschedulable', reasons: [ERR_REASON_NODE_PORTS] };
  const cases: { name: string; pod: Pod; nodeInfo: NodeInfo; wantPreFilter?: 'Skip'; want?: unknown }[] = [
    { name: 'skip filter', pod: makePod('p'), nodeInfo: nodeInfoOf(makeNode('m1')), wantPreFilter: 'Skip' },
    { name: 'other port', pod: newPod('m1', 'UDP/127.0.0.1/8080'), nodeInfo: newNodeInfo('UDP/127.0.0.1/9090') },
    { name: 'same udp port', pod: newPod('m1', 'UDP/127.0.0.1/8080'), nodeInfo: newNodeInfo('UDP/127.0.0.1/8080'), want: rejected },
    { name: 'same tcp port', pod: newPod('m1', 'TCP/127.0.0.1/8080'), nodeInfo: newNodeInfo('TCP/127.0.0.1/8080'), want: rejected },
    { name: 'different host ip', pod: newPod('m1', 'TCP/127.0.0.1/8080'), nodeInfo: newNodeInfo('TCP/127.0.0.2/8080') },
    { name: 'different protocol', pod: newPod('m1', 'UDP/127.0.0.1/8080'), nodeInfo: newNodeInfo('TCP/127.0.0.1/8080') },
    { name: 'second udp port conflict', pod: newPod('m1', 'UDP/127.0.0.1/8000', 'UDP/127.0.0.1/8080'), nodeInfo: newNodeInfo('UDP/127.0.0.1/8080'), want: rejected },
    { name: 'first tcp port conflict', pod: newPod('m1', 'TCP/127.0.0.1/8001', 'UDP/127.0.0.1/8080'), nodeInfo: newNodeInfo('TCP/127.0.0.1/8001', 'UDP/127.0.0.1/8081'), want: rejected },
    { name: 'first tcp port conflict due to 0.0.0.0 hostIP', pod: newPod('m1', 'TCP/0.0.0.0/8001'), nodeInfo: newNodeInfo('TCP/127.0.0.1/8001'), want: rejected },
    { name: 'TCP hostPort conflict due to 0.0.0.0 hostIP', pod: newPod('m1', 'TCP/10.0.10.10/8001', 'TCP/0.0.0.0/8001'), nodeInfo: newNodeInfo('TCP/127.0.0.1/8001'), want: rejected },
    { name: 'second tcp port conflict to 0.0.0.0 hostIP', pod: newPod('m1', 'TCP/127.0.0.1/8001'), nodeInfo: newNodeInfo('TCP/0.0.0.0/8001'), want: rejected },
    { name: 'second different protocol', pod: newPod('m1', 'UDP/127.0.0.1/8001'), nodeInfo: newNodeInfo('TCP/0.0.0.0/8001') },
    { name: 'UDP hostPort conflict due to 0.0.0.0 hostIP', pod: newPod('m1', 'UDP/127.0.0.1/8001'), nodeInfo: newNodeInfo('TCP/0.0.0.0/8001', 'UDP/0.0.0.0/8001'), want: rejected },
    { name: 'empty hostIP and protocol mean 0.0.0.0 and TCP', pod: newPod('m1', '//8001'), nodeInfo: newNodeInfo('TCP/127.0.0.1/8001'), want: rejected },
    {
      name: 'non-sidecar initContainer using hostPort',
      pod: makePod('p', { spec: { initContainers: [{ name: 'i', ports: [{ containerPort: 8001, hostPort: 8001, protocol: 'TCP' }] }] } }),
      nodeInfo: newNodeInfo('TCP/0.0.0.0/8001'),
      wantPreFilter: 'Skip',
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const pl = new NodePorts();
      const state = new CycleState();
      const r = pl.preFilter(state, c.pod, []);
      expect(r.result).toBeUndefined();
      if (c.wantPreFilter === 'Skip') {
        expect(r.status?.code).toBe('Skip');
        return;
      }
      expect(r.status).toBeNull();
      expect(pl.filter(state, c.pod, c.nodeInfo)).toEqual(c.want ?? null);
    });
  }
  it('TestPreFilterDisabled: Filter without PreFilter state is an error', () => {
    const ni = new NodeInfo('n');
    ni.setNode(makeNode('n'));
    expect(new NodePorts().filter(new CycleState(), makePod('p'), ni)?.code).toBe('Error');
  });
});

// TestFits
describe('nodePortsFit', () => {
  const cases = [
    { desc: 'non-conflicting ports', pod: newPod('p', 'TCP/127.0.0.1/80'), existing: newNodeInfo('TCP/127.0.0.1/9090'), expect: true },
    {
      desc: 'multiple non-conflicting ports',
      pod: newPod('p', 'TCP/127.0.0.1/80', 'TCP/127.0.1.1/80', 'TCP/127.0.1.1/90', 'TCP/127.0.1.1/100'),
      existing: newNodeInfo('TCP/127.0.0.1/9090', 'TCP/127.0.0.1/9191', 'TCP/127.0.1.1/8080'),
      expect: true,
    },
    { desc: 'same ports on different protocols', pod: newPod('m1', 'TCP/127.0.0.1/80'), existing: newNodeInfo('UDP/127.0.0.1/80'), expect: true },
    { desc: 'conflicting ports', pod: newPod('m1', 'TCP/127.0.0.1/80'), existing: newNodeInfo('TCP/127.0.0.1/80'), expect: false },
    {
      desc: 'multiple ports, some conflicting',
      pod: newPod('p', 'TCP/127.0.0.1/80', 'TCP/127.0.1.1/80', 'TCP/127.0.1.1/90', 'TCP/127.0.1.1/100'),
      existing: newNodeInfo('TCP/127.0.0.1/9090', 'TCP/127.0.1.1/90', 'TCP/127.0.1.1/8080'),
      expect: false,
    },
  ];
  for (const c of cases) it(c.desc, () => expect(nodePortsFit(c.pod, c.existing)).toBe(c.expect));
});

// Test_isSchedulableAfterPodDeleted
describe('NodePorts queueing hint', () => {
  const pod = newPod('', 'TCP//8080');
  const hostPortPod = (node: string, port?: number) =>
    makePod('old', { nodeName: node || undefined, containers: [{ name: 'c', ports: port ? [{ containerPort: port, hostPort: port }] : [] }] });
  it('registers Pod/Delete and Node/Add', () => {
    expect(new NodePorts().eventsToRegister()).toEqual([
      { resource: 'Pod', actions: ['Delete'] },
      { resource: 'Node', actions: ['Add'] },
    ]);
  });
  it('skip-queue-on-unscheduled', () => expect(isSchedulableAfterPodDeleted(pod, hostPortPod('', 8080))).toBe('QueueSkip'));
  it('skip-queue-on-non-hostport', () => expect(isSchedulableAfterPodDeleted(pod, hostPortPod('fake-node'))).toBe('QueueSkip'));
  it('skip-queue-on-unrelated-hostport', () => expect(isSchedulableAfterPodDeleted(pod, hostPortPod('fake-node', 8081))).toBe('QueueSkip'));
  it('queue-on-released-hostport', () => expect(isSchedulableAfterPodDeleted(pod, hostPortPod('fake-node', 8080))).toBe('Queue'));
  it('queue-on-nominated-pod-releasing-hostport', () => {
    const nominated = { ...hostPortPod('', 8080), status: { phase: 'Pending', nominatedNodeName: 'n1' } };
    expect(isSchedulableAfterPodDeleted(pod, nominated)).toBe('Queue');
  });
  it('Node/Add always queues', () => {
    const pl = new NodePorts();
    expect(pl.isSchedulableAfter(pl.eventsToRegister()[1]!, pod, undefined, makeNode('n'))).toBe('Queue');
  });
});
