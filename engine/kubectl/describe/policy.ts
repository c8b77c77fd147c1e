// kubectl describe pdb (staging/src/k8s.io/kubectl/pkg/describe/describe.go
// v1.32, describePodDisruptionBudgetV1).
import { formatLabelSelector } from '../../apimachinery/selectors/labels';
import { describeEvents, PrefixWriter } from './writer';

type Obj = Record<string, any>;

export function describePodDisruptionBudget(pdb: Obj, events: Obj[] | null, now: number): string {
  const w = new PrefixWriter();
  const spec: Obj = pdb.spec ?? {};
  const st: Obj = pdb.status ?? {};
  w.write(0, `Name:\t${pdb.metadata?.name ?? ''}\n`);
  w.write(0, `Namespace:\t${pdb.metadata?.namespace ?? ''}\n`);
  if (spec.minAvailable !== undefined && spec.minAvailable !== null) w.write(0, `Min available:\t${spec.minAvailable}\n`);
  else if (spec.maxUnavailable !== undefined && spec.maxUnavailable !== null) w.write(0, `Max unavailable:\t${spec.maxUnavailable}\n`);
  w.write(0, spec.selector ? `Selector:\t${formatLabelSelector(spec.selector)}\n` : 'Selector:\t<unset>\n');
  w.write(0, 'Status:\n');
  w.write(2, `Allowed disruptions:\t${st.disruptionsAllowed ?? 0}\n`);
  w.write(2, `Current:\t${st.currentHealthy ?? 0}\n`);
  w.write(2, `Desired:\t${st.desiredHealthy ?? 0}\n`);
  w.write(2, `Total:\t${st.expectedPods ?? 0}\n`);
  if (events) describeEvents(events, w, now);
  return w.done();
}
