// What a CoreDNS process's caches make of the cluster, as records a person can
// read: the answer each Service's name gets (the inspector's DNS section).
import { answerKubernetes, KUBEADM_KUBERNETES, type KubeDnsView } from '../dns/kubernetes';
import type { DnsRecord, Rcode } from '../dns/message';
import { CLUSTER_DOMAIN } from './manifests';

export interface NameAnswer {
  name: string;
  rcode: Rcode;
  answer: DnsRecord[];
}

/** The A query for `<svc>.<ns>.svc.cluster.local.` as the kubernetes plugin answers it (before loadbalance's shuffle). */
export function serviceAnswer(view: KubeDnsView, namespace: string, name: string): NameAnswer {
  const fqdn = `${name}.${namespace}.svc.${CLUSTER_DOMAIN}.`;
  const r = answerKubernetes(view, { name: fqdn, type: 'A' }, KUBEADM_KUBERNETES);
  if (r === null || r === 'fallthrough') return { name: fqdn, rcode: 'SERVFAIL', answer: [] };
  return { name: fqdn, rcode: r.rcode, answer: r.answer };
}

/** Every Service's name and its answer, in the caches' order (namespace, then name). */
export function zoneAnswers(view: KubeDnsView): NameAnswer[] {
  return view.services.map((s) => serviceAnswer(view, s.namespace, s.name));
}
