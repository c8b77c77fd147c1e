import { describe, expect, it } from 'vitest';
import { CycleState } from '../framework/cycleState';
import { NodeInfo } from '../framework/nodeInfo';
import { makeNode, makePod, nodeInfoOf } from '../testing/fixtures';
import { ERR_REASON_NODE_NAME, NodeName } from './nodeName';

// Port of nodename/node_name_test.go (TestNodeName).
describe('NodeName.filter', () => {
  const pl = new NodeName();
  const cases = [
    { name: 'no host specified', pod: makePod('p'), node: 'foo', want: null },
    { name: 'host matches', pod: makePod('p', { nodeName: 'foo' }), node: 'foo', want: null },
    { name: 'host doesn\'t match', pod: makePod('p', { nodeName: 'bar' }), node: 'foo', want: { code: 'UnschedulableAndUnresolvable', reasons: [ERR_REASON_NODE_NAME] } },
  ];
  for (const c of cases) it(c.name, () => expect(pl.filter(new CycleState(), c.pod, nodeInfoOf(makeNode(c.node)))).toEqual(c.want));
  it('reason text', () => expect(ERR_REASON_NODE_NAME).toBe("node(s) didn't match the requested node name"));
  it('a NodeInfo without node is an error', () => expect(pl.filter(new CycleState(), makePod('p'), new NodeInfo('x'))?.code).toBe('Error'));
  it('registers Node/Add only (queueing hints on)', () => expect(pl.eventsToRegister()).toEqual([{ resource: 'Node', actions: ['Add'] }]));
});
