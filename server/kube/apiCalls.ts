// Kubernetes API calls through the playground's API client (kubectl-0): each
// is an engine command (recorded, replayable) that crosses the simulated
// network to kube-apiserver-0; promises settle when the answer arrives in
// virtual time. Watches deliver their event lines as they come.
import type { ApiRequest, ApiResponse } from '../../engine/apiserver/types';
import type { EngineHost } from '../host';

export type ApiOutcome = { ok: true; response: ApiResponse; streaming: boolean; id: number } | { ok: false; error: string };

interface Waiter {
  id: number;
  resolve: (o: ApiOutcome) => void;
  release: () => void;
}

interface Stream {
  id: number;
  onLine: (line: string) => void;
  onEnd: () => void;
}

export class ApiCalls {
  private readonly waiters = new Map<number, Waiter>();
  private readonly streams = new Map<number, Stream>();

  constructor(private readonly host: EngineHost) {
    host.onAdvance(() => this.poll());
  }

  request(request: ApiRequest): Promise<ApiOutcome> {
    const r = this.host.exec({ type: 'api', request });
    if (!r.ok) return Promise.resolve({ ok: false, error: r.error });
    const id = r.result as number;
    return new Promise((resolve) => {
      const release = this.host.hold();
      this.waiters.set(id, { id, resolve, release });
      this.poll();
    });
  }

  /** Writes to an upgraded stream (the stdin of an exec or attach). */
  send(id: number, data: string): void {
    this.host.exec({ type: 'apiSend', call: id, data });
  }

  /** Follows a streaming call's lines until it ends or `cancel` is called. */
  follow(id: number, onLine: (line: string) => void, onEnd: () => void): () => void {
    this.streams.set(id, { id, onLine, onEnd });
    this.poll();
    return () => {
      if (!this.streams.delete(id)) return;
      this.host.exec({ type: 'apiCancel', call: id });
      this.host.engine.apiForget(id);
    };
  }

  private poll(): void {
    const engine = this.host.engine;
    for (const w of [...this.waiters.values()]) {
      const c = engine.apiCall(w.id);
      if (!c) {
        this.waiters.delete(w.id);
        w.release();
        w.resolve({ ok: false, error: 'the call was lost' });
        continue;
      }
      if (!c.response && !c.error) continue;
      this.waiters.delete(w.id);
      w.release();
      if (c.error) {
        engine.apiForget(w.id);
        w.resolve({ ok: false, error: c.error });
      } else {
        if (!c.streaming) engine.apiForget(w.id);
        w.resolve({ ok: true, response: c.response!, streaming: c.streaming, id: w.id });
      }
    }
    for (const s of [...this.streams.values()]) {
      const { lines, ended } = engine.apiDrain(s.id);
      for (const l of lines) s.onLine(l);
      if (ended) {
        this.streams.delete(s.id);
        engine.apiForget(s.id);
        s.onEnd();
      }
    }
  }
}
