// Service validation (pkg/apis/core/validation/validation.go v1.32: ValidateService,
// validateServicePort, ValidateServiceClusterIPsRelatedFields, ValidateServiceUpdate,
// ValidateServiceStatusUpdate) and the node-port range check of the allocator
// (pkg/registry/core/service/portallocator: "provided port is not in the valid range").
import { isDNS1123Label, isDNS1123Subdomain, isIP, isIPv6, isCIDR, isQualifiedName, isValidPortNum, IP_ERROR, CIDR_ERROR } from '../../../apimachinery/validation/names';
import { nameIsDNS1035Label } from '../names';
import { validateLabels, validateObjectMeta, validateObjectMetaUpdate } from '../objectMeta';
import { a, fieldErr, FieldPath, has, isObj, msgs, n, o, root, s, type Errs, type Loose } from '../util';
import { validatePortNumOrName } from './pod';

const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const SERVICE_TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const KUBELET_PORT = 10250;

export const NODE_PORT_RANGE = { base: 30000, size: 2768 };

const isHeadless = (svc: Loose): boolean => s(o(svc.spec).clusterIP) === 'None';

function validateServicePort(sp: Loose, requireName: boolean, names: Set<string>, p: FieldPath): Errs {
  const errs: Errs = [];
  const name = s(sp.name);
  if (requireName && !name) errs.push(fieldErr.required(p.child('name'), ''));
  else if (name) {
    errs.push(...msgs(p.child('name'), name, isDNS1123Label(name)));
    if (names.has(name)) errs.push(fieldErr.duplicate(p.child('name'), name));
    else names.add(name);
  }
  errs.push(...msgs(p.child('port'), n(sp.port), isValidPortNum(n(sp.port))));
  const proto = s(sp.protocol);
  if (!proto) errs.push(fieldErr.required(p.child('protocol'), ''));
  else if (!PROTOCOLS.includes(proto)) errs.push(fieldErr.notSupported(p.child('protocol'), proto, PROTOCOLS));
  errs.push(...validatePortNumOrName(sp.targetPort, p.child('targetPort')));
  if (has(sp.appProtocol)) errs.push(...msgs(p.child('appProtocol'), s(sp.appProtocol), isQualifiedName(s(sp.appProtocol))));
  return errs;
}

function validateClusterIPsRelated(svc: Loose): Errs {
  const spec = o(svc.spec);
  if (spec.type === 'ExternalName') return [];
  const errs: Errs = [];
  const specPath = root('spec');
  const ipsPath = specPath.child('clusterIPs');
  const clusterIP = s(spec.clusterIP);
  const ips = a(spec.clusterIPs).map(s);
  if (clusterIP) {
    if (ips.length === 0) errs.push(fieldErr.required(ipsPath, ''));
    else if (ips[0] !== clusterIP) errs.push(fieldErr.invalid(ipsPath, ips, 'first value must match `clusterIP`'));
  } else if (ips.length) {
    errs.push(fieldErr.invalid(ipsPath, ips, 'must be empty when `clusterIP` is not specified'));
  }
  const seen = new Set<string>();
  a(spec.ipFamilies).forEach((f, i) => {
    if (f !== 'IPv4' && f !== 'IPv6') errs.push(fieldErr.notSupported(specPath.child('ipFamilies').index(i), f, ['IPv4', 'IPv6']));
    if (seen.has(s(f))) errs.push(fieldErr.duplicate(specPath.child('ipFamilies').index(i), f));
    seen.add(s(f));
  });
  if (has(spec.ipFamilyPolicy) && !['PreferDualStack', 'RequireDualStack', 'SingleStack'].includes(s(spec.ipFamilyPolicy))) {
    errs.push(fieldErr.notSupported(specPath.child('ipFamilyPolicy'), spec.ipFamilyPolicy, ['PreferDualStack', 'RequireDualStack', 'SingleStack']));
  }
  let bad = false;
  ips.forEach((ip, i) => {
    if (i === 0 && ip === 'None') {
      if (ips.length > 1) {
        bad = true;
        errs.push(fieldErr.invalid(ipsPath, ips, "'None' must be the first and only value"));
      }
      return;
    }
    if (!isIP(ip)) {
      bad = true;
      errs.push(fieldErr.invalid(ipsPath.index(i), ip, IP_ERROR));
    }
  });
  if (ips.length > 2) errs.push(fieldErr.invalid(ipsPath, ips, 'may only hold up to 2 values'));
  if (bad) return errs;
  if (ips.length > 1 && isIPv6(ips[0]!) === isIPv6(ips[1]!)) errs.push(fieldErr.invalid(ipsPath, ips, 'may specify no more than one IP for each IP family'));
  const fams = a(spec.ipFamilies);
  if (!isHeadless(svc) && ips.length && fams.length) {
    ips.forEach((ip, i) => {
      if (i > fams.length - 1) return;
      if (fams[i] === 'IPv4' && isIPv6(ip)) errs.push(fieldErr.invalid(ipsPath.index(i), ip, `expected an IPv4 value as indicated by \`ipFamilies[${i}]\``));
      if (fams[i] === 'IPv6' && !isIPv6(ip)) errs.push(fieldErr.invalid(ipsPath.index(i), ip, `expected an IPv6 value as indicated by \`ipFamilies[${i}]\``));
    });
  }
  return errs;
}

export function validateService(svc: Loose): Errs {
  const metaPath = root('metadata');
  const errs = validateObjectMeta(svc.metadata, true, nameIsDNS1035Label, metaPath);
  const spec = o(svc.spec);
  const specPath = root('spec');
  const ports = a(spec.ports).map(o);
  const type = s(spec.type);
  if (ports.length === 0 && !isHeadless(svc) && type !== 'ExternalName') errs.push(fieldErr.required(specPath.child('ports'), ''));
  switch (type) {
    case 'LoadBalancer':
      if (isHeadless(svc)) errs.push(fieldErr.invalid(specPath.child('clusterIPs').index(0), s(a(spec.clusterIPs)[0]), "may not be set to 'None' for LoadBalancer services"));
      ports.forEach((pt, i) => {
        if (n(pt.port) === KUBELET_PORT) errs.push(fieldErr.invalid(specPath.child('ports').index(i), KUBELET_PORT, `may not expose port ${KUBELET_PORT} externally since it is used by kubelet`));
      });
      break;
    case 'NodePort':
      if (isHeadless(svc)) errs.push(fieldErr.invalid(specPath.child('clusterIPs').index(0), s(a(spec.clusterIPs)[0]), "may not be set to 'None' for NodePort services"));
      break;
    case 'ExternalName': {
      if (a(spec.clusterIPs).length > 0) errs.push(fieldErr.forbidden(specPath.child('clusterIPs'), 'may not be set for ExternalName services'));
      if (a(spec.ipFamilies).length > 0) errs.push(fieldErr.forbidden(specPath.child('ipFamilies'), 'may not be set for ExternalName services'));
      if (has(spec.ipFamilyPolicy)) errs.push(fieldErr.forbidden(specPath.child('ipFamilyPolicy'), 'may not be set for ExternalName services'));
      const cname = s(spec.externalName).replace(/\.$/, '');
      if (cname) errs.push(...msgs(specPath.child('externalName'), cname, isDNS1123Subdomain(cname)));
      else errs.push(fieldErr.required(specPath.child('externalName'), ''));
      break;
    }
    default:
      break;
  }
  const names = new Set<string>();
  ports.forEach((pt, i) => errs.push(...validateServicePort(pt, ports.length > 1, names, specPath.child('ports').index(i))));
  if (has(spec.selector)) errs.push(...validateLabels(spec.selector, specPath.child('selector')));
  const aff = s(spec.sessionAffinity);
  if (!aff) errs.push(fieldErr.required(specPath.child('sessionAffinity'), ''));
  else if (aff !== 'ClientIP' && aff !== 'None') errs.push(fieldErr.notSupported(specPath.child('sessionAffinity'), aff, ['ClientIP', 'None']));
  if (aff === 'ClientIP') {
    const t = o(o(spec.sessionAffinityConfig).clientIP).timeoutSeconds;
    const cp = specPath.child('sessionAffinityConfig', 'clientIP', 'timeoutSeconds');
    if (!has(t)) errs.push(fieldErr.required(cp, ''));
    else if (n(t) <= 0 || n(t) > 86400) errs.push(fieldErr.invalid(cp, n(t), 'must be greater than 0 and less than 86400'));
  } else if (aff === 'None' && has(spec.sessionAffinityConfig)) {
    errs.push(fieldErr.forbidden(specPath.child('sessionAffinityConfig'), 'must not be set when session affinity is None'));
  }
  errs.push(...validateClusterIPsRelated(svc));
  a(spec.externalIPs).forEach((ip, i) => {
    if (!isIP(s(ip))) errs.push(fieldErr.invalid(specPath.child('externalIPs').index(i), s(ip), IP_ERROR));
  });
  if (!type) errs.push(fieldErr.required(specPath.child('type'), ''));
  else if (!SERVICE_TYPES.includes(type)) errs.push(fieldErr.notSupported(specPath.child('type'), type, SERVICE_TYPES));
  if (type === 'ClusterIP') {
    ports.forEach((pt, i) => {
      if (n(pt.nodePort) !== 0) errs.push(fieldErr.forbidden(specPath.child('ports').index(i).child('nodePort'), "may not be used when `type` is 'ClusterIP'"));
    });
  }
  const nodePorts = new Set<string>();
  ports.forEach((pt, i) => {
    if (n(pt.nodePort) === 0) return;
    const key = `${s(pt.protocol)}/${n(pt.nodePort)}`;
    if (nodePorts.has(key)) errs.push(fieldErr.duplicate(specPath.child('ports').index(i).child('nodePort'), n(pt.nodePort)));
    nodePorts.add(key);
  });
  const seenPorts = new Set<string>();
  ports.forEach((pt, i) => {
    const key = `${s(pt.protocol)}/${n(pt.port)}`;
    if (seenPorts.has(key)) errs.push(fieldErr.duplicate(specPath.child('ports').index(i), { protocol: s(pt.protocol), port: n(pt.port) }));
    seenPorts.add(key);
  });
  const ranges = a(spec.loadBalancerSourceRanges);
  if (ranges.length) {
    const rp = specPath.child('LoadBalancerSourceRanges');
    if (type !== 'LoadBalancer') errs.push(fieldErr.forbidden(rp, "may only be used when `type` is 'LoadBalancer'"));
    ranges.forEach((r, i) => {
      const v = s(r).trim();
      if (!isCIDR(v)) errs.push(fieldErr.invalid(rp.index(i), v, CIDR_ERROR));
    });
  }
  if (has(spec.allocateLoadBalancerNodePorts) && type !== 'LoadBalancer') {
    errs.push(fieldErr.forbidden(specPath.child('allocateLoadBalancerNodePorts'), "may only be used when `type` is 'LoadBalancer'"));
  }
  if (type === 'LoadBalancer' && !has(spec.allocateLoadBalancerNodePorts)) errs.push(fieldErr.required(FieldPath.root('allocateLoadBalancerNodePorts'), ''));
  if (has(spec.loadBalancerClass)) {
    if (type !== 'LoadBalancer') errs.push(fieldErr.forbidden(specPath.child('loadBalancerClass'), "may only be used when `type` is 'LoadBalancer'"));
    else errs.push(...msgs(specPath.child('loadBalancerClass'), s(spec.loadBalancerClass), isQualifiedName(s(spec.loadBalancerClass))));
  }
  errs.push(...validateTrafficPolicies(svc, specPath));
  return errs;
}

function validateTrafficPolicies(svc: Loose, specPath: FieldPath): Errs {
  const spec = o(svc.spec);
  const errs: Errs = [];
  const type = s(spec.type);
  const external = type === 'LoadBalancer' || type === 'NodePort' || (type === 'ClusterIP' && a(spec.externalIPs).length > 0);
  const etp = s(spec.externalTrafficPolicy);
  if (external) {
    if (!etp) errs.push(fieldErr.required(specPath.child('externalTrafficPolicy'), ''));
    else if (etp !== 'Cluster' && etp !== 'Local') errs.push(fieldErr.notSupported(specPath.child('externalTrafficPolicy'), etp, ['Cluster', 'Local']));
  } else if (etp) {
    errs.push(fieldErr.invalid(specPath.child('externalTrafficPolicy'), etp, 'may only be set for externally-accessible services'));
  }
  if (n(spec.healthCheckNodePort) !== 0) {
    if (type !== 'LoadBalancer' || etp !== 'Local') {
      errs.push(fieldErr.invalid(specPath.child('healthCheckNodePort'), n(spec.healthCheckNodePort), 'may only be set when `type` is "LoadBalancer" and `externalTrafficPolicy` is "Local"'));
    } else errs.push(...msgs(specPath.child('healthCheckNodePort'), n(spec.healthCheckNodePort), isValidPortNum(n(spec.healthCheckNodePort))));
  }
  if (type !== 'ExternalName') {
    const itp = spec.internalTrafficPolicy;
    if (!has(itp)) {
      if (type === 'NodePort' || type === 'LoadBalancer' || type === 'ClusterIP') errs.push(fieldErr.required(specPath.child('internalTrafficPolicy'), ''));
    } else if (itp !== 'Cluster' && itp !== 'Local') {
      errs.push(fieldErr.notSupported(specPath.child('internalTrafficPolicy'), itp, ['Cluster', 'Local']));
    }
  }
  if (has(spec.trafficDistribution) && spec.trafficDistribution !== 'PreferClose') {
    errs.push(fieldErr.notSupported(specPath.child('trafficDistribution'), spec.trafficDistribution, ['PreferClose']));
  }
  return errs;
}

/** The node-port allocator's range check, reported as field.Invalid like upstream. */
export function validateNodePortRange(svc: Loose, range = NODE_PORT_RANGE): Errs {
  const errs: Errs = [];
  const max = range.base + range.size - 1;
  a(o(svc.spec).ports).forEach((pt, i) => {
    const np = n(o(pt).nodePort);
    if (np !== 0 && (np < range.base || np > max)) {
      errs.push(fieldErr.invalid(root('spec').child('ports').index(i).child('nodePort'), np, `provided port is not in the valid range. The range of valid ports is ${range.base}-${max}`));
    }
  });
  return errs;
}

function validateUpgradeDowngradeClusterIPs(old: Loose, svc: Loose): Errs {
  const errs: Errs = [];
  const ns = o(svc.spec);
  const os = o(old.spec);
  if (ns.type === 'ExternalName' || os.type === 'ExternalName') return errs;
  if (isHeadless(old) && isHeadless(svc)) return errs;
  const nIPs = a(ns.clusterIPs).map(s);
  const oIPs = a(os.clusterIPs).map(s);
  const p = root('spec').child('clusterIPs');
  if (oIPs.length === nIPs.length) {
    oIPs.forEach((ip, i) => {
      if (ip !== nIPs[i]) errs.push(fieldErr.invalid(p.index(i), nIPs, 'may not change once set'));
    });
  } else if (oIPs.length > nIPs.length) {
    if (nIPs.length === 0) errs.push(fieldErr.invalid(p.index(0), nIPs, 'primary clusterIP can not be unset'));
    if (oIPs.length > 0 && nIPs.length > 0 && nIPs[0] !== oIPs[0]) errs.push(fieldErr.invalid(p.index(0), nIPs, 'may not change once set'));
    if (nIPs.length === 1 && ns.ipFamilyPolicy !== 'SingleStack') {
      errs.push(fieldErr.invalid(p.index(0), nIPs, "`ipFamilyPolicy` must be set to 'SingleStack' when releasing the secondary clusterIP"));
    }
  } else if (oIPs.length > 0 && nIPs[0] !== oIPs[0]) {
    errs.push(fieldErr.invalid(p.index(0), nIPs, 'may not change once set'));
  }
  return errs;
}

function validateUpgradeDowngradeIPFamilies(old: Loose, svc: Loose): Errs {
  const errs: Errs = [];
  const ns = o(svc.spec);
  const os = o(old.spec);
  if (ns.type === 'ExternalName' || os.type === 'ExternalName') return errs;
  if (isHeadless(old) && isHeadless(svc)) return errs;
  const nf = a(ns.ipFamilies).map(s);
  const of = a(os.ipFamilies).map(s);
  const p = root('spec').child('ipFamilies');
  if (of.length === nf.length) {
    of.forEach((f, i) => {
      if (f !== nf[i]) errs.push(fieldErr.invalid(p.index(0), nf, 'may not change once set'));
    });
  } else if (of.length > nf.length) {
    if (nf.length === 0) errs.push(fieldErr.invalid(p.index(0), nf, 'primary ipFamily can not be unset'));
    if (of.length > 0 && nf.length > 0 && nf[0] !== of[0]) errs.push(fieldErr.invalid(p.index(0), nf, 'may not change once set'));
    if (nf.length === 1 && ns.ipFamilyPolicy !== 'SingleStack') {
      errs.push(fieldErr.invalid(p.index(0), nf, "`ipFamilyPolicy` must be set to 'SingleStack' when releasing the secondary ipFamily"));
    }
  } else if (of.length > 0 && nf[0] !== of[0]) {
    errs.push(fieldErr.invalid(p.index(0), nf, 'may not change once set'));
  }
  return errs;
}

export function validateServiceUpdate(svc: Loose, old: Loose): Errs {
  const errs = validateObjectMetaUpdate(svc.metadata, old.metadata);
  errs.push(...validateUpgradeDowngradeClusterIPs(old, svc));
  errs.push(...validateUpgradeDowngradeIPFamilies(old, svc));
  const ns = o(svc.spec);
  const os = o(old.spec);
  if (os.type === 'LoadBalancer' && ns.type === 'LoadBalancer' && s(os.loadBalancerClass) !== s(ns.loadBalancerClass)) {
    errs.push(fieldErr.invalid(root('spec').child('loadBalancerClass'), ns.loadBalancerClass ?? null, 'may not change once set'));
  }
  errs.push(...validateService(svc));
  return errs;
}

export function validateServiceStatusUpdate(svc: Loose, old: Loose): Errs {
  const errs = validateObjectMetaUpdate(svc.metadata, old.metadata);
  const lb = o(o(svc.status).loadBalancer);
  a(lb.ingress).forEach((ing, i) => {
    const ip = s(o(ing).ip);
    const p = root('status').child('loadBalancer', 'ingress').index(i);
    if (ip && !isIP(ip)) errs.push(fieldErr.invalid(p.child('ip'), ip, IP_ERROR));
    const host = s(o(ing).hostname);
    if (host) {
      errs.push(...msgs(p.child('hostname'), host, isDNS1123Subdomain(host)));
      if (isIP(host)) errs.push(fieldErr.invalid(p.child('hostname'), host, 'must be a DNS name, not an IP address'));
    }
    if (has(o(ing).ipMode) && !ip) errs.push(fieldErr.forbidden(p.child('ipMode'), 'may not be specified when `ip` is not set'));
  });
  return errs;
}

export const isHeadlessService = isHeadless;
export { isObj };
