// The in-page kubectl on a simulated cluster, for integration tests: the
// worker's API bridge and kubectl host, with virtual time advanced until it exits.
import { ApiBridge } from '../apiBridge';
import { KubectlHost } from '../kubectlHost';
import type { Engine } from '../../facade/engine';

export async function kubectlOn(e: Engine, args: string[]): Promise<Awaited<ReturnType<KubectlHost['run']>>> {
  const bridge = new ApiBridge(e);
  const host = new KubectlHost(bridge, () => e.sim.now);
  let done = false;
  let value!: Awaited<ReturnType<KubectlHost['run']>>;
  host.run(['kubectl', ...args]).then((v) => ((done = true), (value = v)));
  for (let i = 0; i < 2000 && !done; i++) {
    e.advance(5);
    bridge.poll();
    for (let j = 0; j < 20; j++) await Promise.resolve();
  }
  if (!done) throw new Error('kubectl did not finish');
  return value;
}
