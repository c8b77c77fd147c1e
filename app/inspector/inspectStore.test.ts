import { describe, expect, it } from 'vitest';
import { create } from 'zustand';
import type { InspectView, ObjectRef } from '../../engine/host/protocol';
import { InspectPoller, refKey, type InspectState } from './inspectStore';
import { EventsPoller, type EventsState } from '../events/eventsStore';

const view = (ref: ObjectRef): InspectView => ({ ref, kind: 'Pod', apiVersion: 'v1', found: true, yaml: `name: ${ref.name}\n`, uid: 'u', resourceVersion: '1', owners: [], owned: [], ownedTotal: 0, events: [] });

describe('InspectPoller', () => {
  it('shows the object followed; an answer for one no longer followed is dropped', async () => {
    const store = create<InspectState>()(() => ({ key: '', view: null, error: null, reads: 0 }));
    const waiting: (() => void)[] = [];
    const p = new InspectPoller({ inspect: (ref) => new Promise((r) => waiting.push(() => r(view(ref)))) }, store);
    const a = { group: '', resource: 'pods', namespace: 'default', name: 'a' };
    const b = { group: '', resource: 'pods', namespace: 'default', name: 'b' };
    p.follow(a);
    p.follow(b); // asked while a's read is out: b is read once a's answer is in
    waiting.shift()!();
    await new Promise((r) => setTimeout(r, 0));
    expect(store.getState().view).toBeNull();
    waiting.shift()!();
    await new Promise((r) => setTimeout(r, 0));
    expect(store.getState()).toMatchObject({ key: refKey(b), view: { yaml: 'name: b\n' } });
    const err = new InspectPoller({ inspect: async () => ({ error: 'the server doesn\'t have a resource type "widgets"' }) }, store);
    err.follow({ group: '', resource: 'widgets', name: 'w' });
    await new Promise((r) => setTimeout(r, 0));
    expect(store.getState()).toMatchObject({ view: null, error: 'the server doesn\'t have a resource type "widgets"' });
  });
});

describe('EventsPoller', () => {
  it('reads with the filter (bounded), and again at once when the filter changes', async () => {
    const store = create<EventsState>()(() => ({ filter: {}, view: null, reads: 0, error: null }));
    const asked: object[] = [];
    const p = new EventsPoller({ events: async (q) => (asked.push(q), { rows: [], matched: 0, total: 0, reasons: [], kinds: [] }) }, store);
    await p.refresh();
    p.setFilter({ reason: 'Scheduled', name: '' });
    await new Promise((r) => setTimeout(r, 0));
    expect(asked).toEqual([{ limit: 300 }, { reason: 'Scheduled', limit: 300 }]);
    expect(store.getState().filter).toEqual({ reason: 'Scheduled' });
    expect(store.getState().reads).toBe(2);
  });
});
