import { it } from 'vitest';
import { checkOperations } from './linearizability';
import { etcdModel, patchEtcdHistory } from './etcdModel';
import { generateEtcdHistory } from './testHistories';
it('perf', () => {
  const times: number[] = [];
  let maxSteps = 0; let totalSteps = 0;
  for (let seed = 1; seed <= 300; seed++) {
    const h = generateEtcdHistory(seed, { ops: 300, timeoutRate: Number(process.env.TR ?? 0.05) });
    const t0 = performance.now();
    const r = checkOperations(etcdModel, process.env.NOPATCH ? h.operations : patchEtcdHistory(h.operations, h.revisions));
    const t = performance.now() - t0;
    times.push(t);
    maxSteps = Math.max(maxSteps, r.steps); totalSteps += r.steps;
    if (r.ok !== true) console.log(seed, r.ok, r.steps, r.ok === false ? r.explanation : '');
  }
  times.sort((a, b) => a - b);
  console.log('median', times[150], 'p95', times[285], 'max', times[299], 'maxSteps', maxSteps, 'totalSteps', totalSteps, 'total', times.reduce((a, b) => a + b));
});
