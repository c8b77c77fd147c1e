// The host session against the real engine: the posted diffs, merged, always
// equal the engine's own views.
import { describe, expect, it } from 'vitest';
import { Engine } from '../index';
import type { EtcdMemberView, KvEntryView } from '../facade/types';
import type { ViewUpdate } from './protocol';
import { HostSession, type HostTimers } from './session';

function fakeTimers() {
  const t = {
    wall: 0,
    queue: [] as { at: number; fn: () => void; id: number }[],
    next: 1,
  };
  const timers: HostTimers = {
    now: () => t.wall,
    schedule: (fn, ms) => {
      const id = t.next++;
      t.queue.push({ at: t.wall + ms, fn, id });
      return id;
    },
    cancel: (h) => {
      t.queue = t.queue.filter((q) => q.id !== h);
    },
  };
  const run = (ms: number) => {
    const end = t.wall + ms;
    for (;;) {
      t.queue.sort((a, b) => a.at - b.at);
      const q = t.queue[0];
      if (!q || q.at > end) break;
      t.queue.shift();
      t.wall = Math.max(t.wall, q.at);
      q.fn();
    }
    t.wall = end;
  };
  return { timers, run };
}

describe('HostSession with the real engine', () => {
  it('merged updates reproduce the engine views through an election, a put, a crash and a partition', () => {
    const engine = Engine.create({ seed: 7, etcdMembers: 3 });
    const { timers, run } = fakeTimers();
    const session = new HostSession(engine, timers);
    const members = new Map<string, EtcdMemberView>();
    const kv = new Map<string, KvEntryView>();
    let lastN = -1;
    let inFlight: ViewUpdate['inFlight'] = [];
    session.subscribe((u) => {
      for (const m of u.members ?? []) members.set(m.name, m);
      if (u.kv) {
        for (const k of u.kv.removed) kv.delete(k);
        for (const e of u.kv.changed) kv.set(e.key, e);
      }
      for (const r of u.trace ?? []) {
        expect(r.n).toBeGreaterThan(lastN);
        lastN = r.n;
      }
      if (u.inFlight) inFlight = u.inFlight;
    });
    const check = () => {
      const v = engine.etcdView();
      expect([...members.values()].sort((a, b) => a.name.localeCompare(b.name))).toEqual(v.members);
      expect([...kv.values()].sort((a, b) => a.key.localeCompare(b.key))).toEqual([...v.kv.keys].sort((a, b) => a.key.localeCompare(b.key)));
      expect(inFlight).toEqual(v.inFlight);
    };
    session.setSpeed(100);
    session.play();
    run(100); // 10 s virtual: a leader is elected
    check();
    const leader = [...members.values()].find((m) => m.role === 'leader');
    expect(leader).toBeDefined();
    session.exec({ type: 'etcdOp', op: { op: 'put', key: '/k', value: 'v' } });
    run(50);
    check();
    expect(kv.get('/k')?.value).toBe('v');
    session.exec({ type: 'fault', fault: { action: 'crash', target: leader!.name } });
    run(100);
    check();
    expect(members.get(leader!.name)?.role).toBe('down');
    session.exec({ type: 'fault', fault: { action: 'partition', groups: [['etcd-0'], ['etcd-1', 'etcd-2']] } });
    session.exec({ type: 'etcdOp', op: { op: 'delete', key: '/k' } });
    run(100);
    session.pause();
    run(50); // the deferred post after pause
    check();
    expect(lastN).toBe(engine.trace(-1, 1)[0]!.n);
  });

  it('posts the faults in effect when they change, and only then', () => {
    const engine = Engine.create({ seed: 8, etcdMembers: 3 });
    const { timers, run } = fakeTimers();
    const session = new HostSession(engine, timers);
    const posts: NonNullable<ViewUpdate['faults']>[] = [];
    session.subscribe((u) => u.faults && posts.push(u.faults));
    expect(posts).toEqual([[]]);
    session.exec({ type: 'fault', fault: { action: 'crash', target: 'etcd-1' } });
    run(20);
    session.exec({ type: 'etcdOp', op: { op: 'put', key: '/k', value: 'v' } });
    run(20);
    expect(posts).toHaveLength(2);
    expect(posts[1]).toEqual(engine.activeFaults());
    expect(posts[1]![0]).toMatchObject({ fault: { action: 'crash', target: 'etcd-1' }, targets: ['etcd-1'] });
    session.exec({ type: 'fault', fault: { action: 'heal', id: posts[1]![0]!.id } });
    run(20);
    expect(posts).toHaveLength(3);
    expect(posts[2]).toEqual([]);
  });
});
