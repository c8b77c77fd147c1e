// What a CoreDNS process's caches make of the cluster, as records a person can
// read: the answer each Service's name gets (the inspector's DNS section).
import { answerKubernetes, type KubeDnsView, type KubernetesPluginConfig } from '../dns/kubernetes';
import type { DnsRecord, Rcode } from '../dns/message';
import { CLUSTER_DOMAIN } from './manifests';

export interface NameAnswer {
  name: string;
  rcode: Rcode;
  answer: DnsRecord[];
}

/**
 * The A query for `<svc>.<ns>.svc.cluster.local.` as the kubernetes plugin of the pod's Corefile answers it
 * (before loadbalance's shuffle); SERVFAIL when the Corefile has no kubernetes plugin for the name.
 */
export function serviceAnswer(view: KubeDnsView, plugin: KubernetesPluginConfig | null, namespace: string, name: string): NameAnswer {
  const fqdn = `${name}.${namespace}.svc.${CLUSTER_DOMAIN}.`;
  const r = plugin ? answerKubernetes(view, { name: fqdn, type: 'A' }, plugin) : null;
  if (r === null || r === 'fallthrough') return { name: fqdn, rcode: 'SERVFAIL', answer: [] };
  return { name: fqdn, rcode: r.rcode, answer: r.answer };
}

/** Every Service's name and its answer, in the caches' order (namespace, then name). */
export function zoneAnswers(view: KubeDnsView, plugin: KubernetesPluginConfig | null): NameAnswer[] {
  return view.services.map((s) => serviceAnswer(view, plugin, s.namespace, s.name));
}
