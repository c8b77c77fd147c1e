import { describe, expect, it } from 'vitest';
import { clusterPolicyChain, isServiceChainName } from './chains';

describe('kube-proxy chain names', () => {
  it('hash a service port as upstream does (names seen on every kubeadm node)', () => {
    expect(clusterPolicyChain('default/kubernetes:https', 'tcp')).toBe('KUBE-SVC-NPX46M4PTMTKRN6Y');
    expect(clusterPolicyChain('kube-system/kube-dns:dns', 'udp')).toBe('KUBE-SVC-TCOU7JCQXEZGVUNU');
    expect(clusterPolicyChain('kube-system/kube-dns:dns-tcp', 'tcp')).toBe('KUBE-SVC-ERIFXISQEP7F7OF4');
    expect(clusterPolicyChain('kube-system/kube-dns:metrics', 'tcp')).toBe('KUBE-SVC-JD5MR3NA4I4DYORP');
  });
  it('know their own chains from everyone else’s', () => {
    expect(isServiceChainName('KUBE-SEP-ABC')).toBe(true);
    expect(isServiceChainName('KUBE-SERVICES')).toBe(false);
  });
});
