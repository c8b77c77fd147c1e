// A fixed workload for instruction counts (cachegrind), which hold still where
// wall seconds drift: 200 kwok nodes created through the API, a settling
// minute, then S idle virtual seconds. The window of S seconds is
// run(S) − run(0). Bundle it first (valgrind runs node on one file):
//   npx esbuild bench/fleetIdleWindow.ts --bundle --platform=node --format=esm --outfile=/tmp/fleet.mjs \
//     --banner:js="import { createRequire } from 'module'; const require = createRequire(import.meta.url);"
//   valgrind --tool=cachegrind --cache-sim=no --smc-check=all-non-file --cachegrind-out-file=/dev/null \
//     node --single-threaded /tmp/fleet.mjs 30 [200]
import { Engine } from '../engine/facade/engine';
import { ADMIN_TOKEN } from '../engine/apiserver/server/scenario';
import { kwokNode } from './fleet';

const S = Number(process.argv[2] ?? 0);
const N = Number(process.argv[3] ?? 200);
const auth = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };
const e = Engine.create({ seed: 1, etcdMembers: 3, controlPlane: true, nodes: 0, maxRequestsInflight: 10_000, maxMutatingRequestsInflight: 10_000 });
for (let i = 0; i < 300 && !e.clusterReady(); i++) e.advance(100);
for (let i = 0; i < N; i++) {
  const r = e.exec({ type: 'api', request: { method: 'POST', path: '/api/v1/nodes', query: {}, headers: auth, body: JSON.stringify(kwokNode(`kwok-node-${i}`)) } });
  if (!r.ok) throw new Error(r.error);
  if (i % 50 === 49) e.advance(200);
}
e.advance(60_000);
const ev0 = e.sim.processed;
e.advance(S * 1000);
console.log(`S=${S} events ${e.sim.processed - ev0} digest ${e.sim.trace.digest()}`);
