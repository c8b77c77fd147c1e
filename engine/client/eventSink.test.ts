import { describe, expect, it } from 'vitest';
import { afterEventAnswer, eventRequest, eventWrite, EVENT_MAX_TRIES, EVENT_RETRY_SLEEP_MS, type EventWrite } from './eventSink';

const create = { path: '/api/v1/namespaces/default/events', body: '{"kind":"Event"}' };
const patch = { path: '/api/v1/namespaces/default/events/web.1', body: '{"count":2}' };
const half = () => 0.5;

describe('event sink (client-go recordToSink / attemptRecording)', () => {
  it('a bump is a strategic merge PATCH; answered 404 it becomes the create of the whole Event', () => {
    const w = eventWrite('core', create, patch);
    expect(eventRequest(w)).toEqual({ method: 'PATCH', path: patch.path, body: patch.body, contentType: 'application/strategic-merge-patch+json' });
    const next = afterEventAnswer(w, 404, half);
    expect(next.type).toBe('send');
    expect(eventRequest((next as { write: EventWrite }).write)).toEqual({ method: 'POST', path: create.path, body: create.body });
    // A create answered 404 (its namespace is gone) is not retried.
    expect(afterEventAnswer((next as { write: EventWrite }).write, 404, half)).toEqual({ type: 'done' });
  });

  it('core/v1: no answer is retried after a random share of 10 s, then every 10 s, from the PATCH again, 12 tries in all', () => {
    let w = eventWrite('core', create, patch);
    w = { ...w, creating: true }; // the fallback create got no answer
    const delays: number[] = [];
    for (;;) {
      const next = afterEventAnswer(w, 0, () => 0.25);
      if (next.type !== 'retry') break;
      delays.push(next.afterMs);
      w = next.write;
      expect(eventRequest(w).method).toBe('PATCH');
    }
    expect(delays).toEqual([0.25 * EVENT_RETRY_SLEEP_MS, ...Array(EVENT_MAX_TRIES - 2).fill(EVENT_RETRY_SLEEP_MS)]);
  });

  it('core/v1: a refusal is not retried, AlreadyExists included', () => {
    for (const status of [400, 403, 409, 422, 500]) expect(afterEventAnswer(eventWrite('core', create), status, half)).toEqual({ type: 'done' });
    expect(afterEventAnswer(eventWrite('core', create), 201, half)).toEqual({ type: 'done' });
  });

  it('events.k8s.io: retries wait 10 s jittered by up to 25 %, and a series whose fallback create meets AlreadyExists is retried', () => {
    const w = eventWrite('events', create, patch);
    const r = afterEventAnswer(w, 0, () => 0.999);
    expect(r.type === 'retry' && r.afterMs).toBeCloseTo(12_497.5);
    expect(afterEventAnswer(w, 0, () => 0).type === 'retry' && (afterEventAnswer(w, 0, () => 0) as { afterMs: number }).afterMs).toBe(10_000);
    expect(afterEventAnswer({ ...w, creating: true }, 409, half).type).toBe('retry');
    // A first create answered AlreadyExists is dropped.
    expect(afterEventAnswer(eventWrite('events', create), 409, half)).toEqual({ type: 'done' });
  });
});
