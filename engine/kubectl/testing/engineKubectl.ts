// Our kubectl against a simulated cluster (the integration tests): requests go
// through the engine's API server; watches are not used by these commands.
import { call } from '../../apiserver/testing/harness';
import { SIM_EPOCH_MS } from '../../apiserver/http/time';
import type { Engine } from '../../facade/engine';
import type { ApiRequest } from '../../apiserver/types';
import type { KubectlEnv, KubectlResult } from '../types';
import { runKubectl } from '../index';

export function engineKubectl(e: Engine, env: Partial<Omit<KubectlEnv, 'transport' | 'now'>> = {}): (...args: string[]) => Promise<KubectlResult> {
  const transport = {
    async request(req: ApiRequest) {
      const r = call(e, req.method, req.path, req.body, { query: req.query as Record<string, string>, headers: req.headers });
      return { status: r.status, headers: r.headers, body: r.text };
    },
    watch(): never {
      throw new Error('no watches in these tests');
    },
  };
  return async (...args: string[]) => runKubectl(args, { files: {}, namespace: 'default', ...env, transport: transport as never, now: () => SIM_EPOCH_MS + e.sim.now });
}
