// Test helper: wait (in wall time, the server runs at real speed) until the
// served cluster can take workloads — the API server ready and the default
// ServiceAccount made (ServiceAccount admission refuses pods before it).
import type { RunningServer } from '../server';

export async function waitForCluster(server: RunningServer, timeoutMs = 30_000): Promise<void> {
  for (let waited = 0; waited < timeoutMs && !server.host.engine.clusterReady(); waited += 20) await new Promise((r) => setTimeout(r, 20));
  if (!server.host.engine.clusterReady()) throw new Error(`the cluster (API server and the default ServiceAccount) was not ready after ${timeoutMs / 1000} wall s`);
}
