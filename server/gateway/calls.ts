// Raw etcd calls through the playground's client (etcd-client-0): each one is
// an engine command, so it travels the simulated network and is recorded in
// the command log; its promise settles when the call completes in virtual time.
import type { CallOutcome } from '../../engine/etcd/client/client';
import type { RequestBodies, RequestType } from '../../engine/etcd/server/messages';
import { PLAYGROUND_CLIENT } from '../../engine/facade/engine';
import type { EngineHost } from '../host';

interface Waiter {
  id: number;
  resolve: (o: CallOutcome) => void;
  release: () => void;
}

export class EtcdCalls {
  private readonly waiters = new Map<number, Waiter>();

  constructor(private readonly host: EngineHost) {
    host.onAdvance(() => this.poll());
  }

  /** Starts a call; returns its id (or an engine refusal). */
  start<K extends RequestType>(type: K, body: RequestBodies[K], endpoint?: string): { ok: true; id: number } | { ok: false; error: string } {
    const r = this.host.exec({ type: 'etcd', request: { type, body, endpoint } });
    if (!r.ok) return r;
    return { ok: true, id: r.result as number };
  }

  /** Settles when the call has an outcome; the call record is then dropped from the client. */
  wait(id: number): Promise<CallOutcome> {
    return new Promise((resolve) => {
      const release = this.host.hold();
      this.waiters.set(id, { id, resolve, release });
      this.poll();
    });
  }

  /** Starts a call and waits for it. */
  async call<K extends RequestType>(type: K, body: RequestBodies[K], endpoint?: string): Promise<CallOutcome | { status: 'refused'; error: string }> {
    const s = this.start(type, body, endpoint);
    if (!s.ok) return { status: 'refused', error: s.error };
    return this.wait(s.id);
  }

  /** Forgets a call nobody will wait for (keeps the client's call table bounded). */
  forgetWhenDone(id: number): void {
    this.wait(id).then(
      () => undefined,
      () => undefined,
    );
  }

  get pending(): number {
    return this.waiters.size;
  }

  private poll(): void {
    if (this.waiters.size === 0) return;
    const client = this.host.engine.client(PLAYGROUND_CLIENT);
    const done: number[] = [];
    for (const w of this.waiters.values()) {
      const rec = client.calls.get(w.id);
      if (!rec?.outcome) continue;
      done.push(w.id);
      this.waiters.delete(w.id);
      w.release();
      w.resolve(rec.outcome);
    }
    if (done.length > 0) client.forget(done);
    // The client lists finished calls for hosts to drain; this host reads outcomes directly.
    if (client.completedIds.length > 1000) client.completedIds.splice(0, client.completedIds.length);
  }
}
