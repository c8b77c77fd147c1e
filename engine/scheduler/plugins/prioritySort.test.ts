import { describe, expect, it } from 'vitest';
import type { QueuedPodInfo } from '../framework/interface';
import { PodInfo } from '../framework/podInfo';
import { makePod } from '../testing/fixtures';
import { PrioritySort, prioritySortDefinition } from './prioritySort';

function qpi(name: string, priority: number | undefined, timestamp: number): QueuedPodInfo {
  return { podInfo: new PodInfo(makePod(name, { priority })), timestamp, attempts: 0, unschedulablePlugins: [], pendingPlugins: [], gated: false };
}

// Port of queuesort/priority_sort_test.go (TestLess).
describe('PrioritySort.less', () => {
  const lowPriority = 10;
  const highPriority = 20;
  const t1 = 1_000;
  const t2 = 2_000;
  const cases: { name: string; p1: QueuedPodInfo; p2: QueuedPodInfo; want: boolean }[] = [
    { name: 'p1.priority less than p2.priority', p1: qpi('p1', lowPriority, t1), p2: qpi('p2', highPriority, t1), want: false },
    { name: 'p1.priority greater than p2.priority', p1: qpi('p1', highPriority, t1), p2: qpi('p2', lowPriority, t1), want: true },
    { name: 'equal priority. p1 is added to schedulingQ earlier than p2', p1: qpi('p1', highPriority, t1), p2: qpi('p2', highPriority, t2), want: true },
    { name: 'equal priority. p2 is added to schedulingQ earlier than p1', p1: qpi('p1', highPriority, t2), p2: qpi('p2', highPriority, t1), want: false },
    { name: 'equal priority and timestamp', p1: qpi('p1', highPriority, t1), p2: qpi('p2', highPriority, t1), want: false },
    { name: 'unset priority is 0', p1: qpi('p1', undefined, t1), p2: qpi('p2', -1, t1), want: true },
  ];
  const pl = prioritySortDefinition.factory(undefined, undefined as never) as PrioritySort;
  for (const c of cases) it(c.name, () => expect(pl.less(c.p1, c.p2)).toBe(c.want));
  it('is named PrioritySort', () => expect(pl.name).toBe('PrioritySort'));
});
