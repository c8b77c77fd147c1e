// networking.k8s.io/v1 validation (pkg/apis/networking/validation/validation.go v1.32).
import { CIDR_ERROR, isCIDR, isDNS1035Label, isDNS1123Subdomain, isIP, isValidPortName, isValidPortNum, isWildcardDNS1123Subdomain } from '../../apimachinery/validation/names';
import { nameIsDNSSubdomain } from './names';
import { validateLabelSelector, validateObjectMeta, validateObjectMetaUpdate } from './objectMeta';
import { a, fieldErr, FieldPath, has, immutable, isObj, msgs, n, o, root, s, type Errs, type Loose } from './util';

function validatePort(port: Loose, p: FieldPath): Errs {
  const errs: Errs = [];
  if (has(port.protocol) && !['TCP', 'UDP', 'SCTP'].includes(s(port.protocol))) errs.push(fieldErr.notSupported(p.child('protocol'), port.protocol, ['TCP', 'UDP', 'SCTP']));
  if (has(port.port)) {
    if (typeof port.port === 'number') {
      errs.push(...msgs(p.child('port'), port.port, isValidPortNum(port.port)));
      if (has(port.endPort)) {
        if (n(port.endPort) < port.port) errs.push(fieldErr.invalid(p.child('endPort'), port.port, 'must be greater than or equal to `port`'));
        errs.push(...msgs(p.child('endPort'), n(port.endPort), isValidPortNum(n(port.endPort))));
      }
    } else {
      if (has(port.endPort)) errs.push(fieldErr.invalid(p.child('endPort'), n(port.endPort), 'may not be specified when `port` is non-numeric'));
      errs.push(...msgs(p.child('port'), s(port.port), isValidPortName(s(port.port))));
    }
  } else if (has(port.endPort)) {
    errs.push(fieldErr.invalid(p.child('endPort'), n(port.endPort), 'may not be specified when `port` is not specified'));
  }
  return errs;
}

function cidrContains(outer: string, inner: string): boolean {
  const [oip, obits] = outer.split('/');
  const [iip, ibits] = inner.split('/');
  if (Number(obits) >= Number(ibits)) return false;
  const toBits = (ip: string): string | null => {
    if (isIP(ip) && !ip.includes(':')) return ip.split('.').map((x) => Number(x).toString(2).padStart(8, '0')).join('');
    return null;
  };
  const ob = toBits(oip!);
  const ib = toBits(iip!);
  if (ob === null || ib === null) return ip6Prefix(oip!, iip!, Number(obits));
  return ob.slice(0, Number(obits)) === ib.slice(0, Number(obits));
}
function ip6Prefix(a6: string, b6: string, bits: number): boolean {
  const expand = (ip: string) => {
    const [h, t] = ip.split('::');
    const hs = h ? h.split(':') : [];
    const ts = t !== undefined && t ? t.split(':') : [];
    const fill = ip.includes('::') ? 8 - hs.length - ts.length : 0;
    return [...hs, ...Array<string>(fill).fill('0'), ...ts].map((g) => parseInt(g, 16).toString(2).padStart(16, '0')).join('');
  };
  return expand(a6).slice(0, bits) === expand(b6).slice(0, bits);
}

function validatePeer(peer: Loose, p: FieldPath): Errs {
  const errs: Errs = [];
  let count = 0;
  if (has(peer.podSelector)) {
    count++;
    errs.push(...validateLabelSelector(peer.podSelector, {}, p.child('podSelector')));
  }
  if (has(peer.namespaceSelector)) {
    count++;
    errs.push(...validateLabelSelector(peer.namespaceSelector, {}, p.child('namespaceSelector')));
  }
  if (has(peer.ipBlock)) {
    count++;
    const ib = o(peer.ipBlock);
    const bp = p.child('ipBlock');
    const cidr = s(ib.cidr);
    if (!cidr) errs.push(fieldErr.required(bp.child('cidr'), ''));
    else if (!isCIDR(cidr)) errs.push(fieldErr.invalid(bp.child('cidr'), cidr, CIDR_ERROR));
    else {
      a(ib.except).forEach((ex, i) => {
        const e = s(ex);
        if (!isCIDR(e)) errs.push(fieldErr.invalid(bp.child('except').index(i), e, CIDR_ERROR));
        else if (!cidrContains(cidr, e)) errs.push(fieldErr.invalid(bp.child('except').index(i), e, 'must be a strict subset of `cidr`'));
      });
    }
  }
  if (count === 0) errs.push(fieldErr.required(p, 'must specify a peer'));
  else if (count > 1 && has(peer.ipBlock)) errs.push(fieldErr.forbidden(p, 'may not specify both ipBlock and another peer'));
  return errs;
}

function validateNetworkPolicySpec(spec: unknown): Errs {
  const sp = o(spec);
  const p = root('spec');
  const errs = validateLabelSelector(sp.podSelector ?? {}, {}, p.child('podSelector'));
  for (const [dir, peers] of [
    ['ingress', 'from'],
    ['egress', 'to'],
  ] as const) {
    a(sp[dir]).forEach((rule, i) => {
      const rp = p.child(dir).index(i);
      a(o(rule).ports).forEach((pt, j) => errs.push(...validatePort(o(pt), rp.child('ports').index(j))));
      a(o(rule)[peers]).forEach((peer, j) => errs.push(...validatePeer(o(peer), rp.child(peers).index(j))));
    });
  }
  const types = a(sp.policyTypes);
  if (types.length > 2) {
    errs.push(fieldErr.invalid(p.child('policyTypes'), types, 'may not specify more than two policyTypes'));
    return errs;
  }
  types.forEach((t, i) => {
    if (t !== 'Ingress' && t !== 'Egress') errs.push(fieldErr.notSupported(p.child('policyTypes').index(i), t, ['Ingress', 'Egress']));
  });
  return errs;
}

export function validateNetworkPolicy(np: Loose): Errs {
  return [...validateObjectMeta(np.metadata, true, nameIsDNSSubdomain), ...validateNetworkPolicySpec(np.spec)];
}
export function validateNetworkPolicyUpdate(np: Loose, old: Loose): Errs {
  return [...validateObjectMetaUpdate(np.metadata, old.metadata), ...validateNetworkPolicySpec(np.spec)];
}

// ---------------------------------------------------------------- Ingress

function validateBackend(b: Loose, p: FieldPath): Errs {
  const errs: Errs = [];
  const hasRes = has(b.resource);
  const hasSvc = has(b.service);
  if (hasRes && hasSvc) return [fieldErr.invalid(p, '', 'cannot set both resource and service backends')];
  if (hasRes) {
    const r = o(b.resource);
    if (!s(r.name)) errs.push(fieldErr.required(p.child('resource', 'name'), ''));
    if (!s(r.kind)) errs.push(fieldErr.required(p.child('resource', 'kind'), ''));
    return errs;
  }
  if (hasSvc) {
    const svc = o(b.service);
    const name = s(svc.name);
    if (!name) errs.push(fieldErr.required(p.child('service', 'name'), ''));
    else errs.push(...msgs(p.child('service', 'name'), name, isDNS1035Label(name)));
    const port = o(svc.port);
    const hasName = s(port.name).length > 0;
    const hasNum = n(port.number) !== 0;
    if (hasName && hasNum) errs.push(fieldErr.invalid(p, '', 'cannot set both port name & port number'));
    else if (hasName) errs.push(...msgs(p.child('service', 'port', 'name'), s(port.name), isValidPortName(s(port.name))));
    else if (hasNum) errs.push(...msgs(p.child('service', 'port', 'number'), n(port.number), isValidPortNum(n(port.number))));
    else errs.push(fieldErr.required(p, 'port name or number is required'));
    return errs;
  }
  return [fieldErr.invalid(p, '', 'resource or service backend is required')];
}

function validateHTTPPath(path: Loose, p: FieldPath): Errs {
  if (!has(path.pathType)) return [fieldErr.required(p.child('pathType'), 'pathType must be specified')];
  const errs: Errs = [];
  const value = s(path.path);
  switch (s(path.pathType)) {
    case 'Exact':
    case 'Prefix':
      if (!value.startsWith('/')) errs.push(fieldErr.invalid(p.child('path'), value, 'must be an absolute path'));
      if (value) {
        for (const seq of ['//', '/./', '/../', '%2f', '%2F']) if (value.includes(seq)) errs.push(fieldErr.invalid(p.child('path'), value, `must not contain '${seq}'`));
        for (const suf of ['/..', '/.']) if (value.endsWith(suf)) errs.push(fieldErr.invalid(p.child('path'), value, `cannot end with '${suf}'`));
      }
      break;
    case 'ImplementationSpecific':
      if (value && !value.startsWith('/')) errs.push(fieldErr.invalid(p.child('path'), value, 'must be an absolute path'));
      break;
    default:
      errs.push(fieldErr.notSupported(p.child('pathType'), path.pathType, ['Exact', 'ImplementationSpecific', 'Prefix']));
  }
  errs.push(...validateBackend(o(path.backend), p.child('backend')));
  return errs;
}

function validateIngressSpec(spec: unknown): Errs {
  const sp = o(spec);
  const p = root('spec');
  const errs: Errs = [];
  const rules = a(sp.rules);
  if (rules.length === 0 && !has(sp.defaultBackend)) errs.push(fieldErr.invalid(p, rules, 'either `defaultBackend` or `rules` must be specified'));
  if (has(sp.defaultBackend)) errs.push(...validateBackend(o(sp.defaultBackend), p.child('defaultBackend')));
  rules.forEach((r, i) => {
    const rp = p.child('rules').index(i);
    const rule = o(r);
    const host = s(rule.host);
    if (host) {
      if (isIP(host)) errs.push(fieldErr.invalid(rp.child('host'), host, 'must be a DNS name, not an IP address'));
      if (host.includes('*')) errs.push(...msgs(rp.child('host'), host, isWildcardDNS1123Subdomain(host)));
      else errs.push(...msgs(rp.child('host'), host, isDNS1123Subdomain(host)));
    }
    if (isObj(rule.http)) {
      const paths = a((rule.http as Loose).paths);
      if (paths.length === 0) errs.push(fieldErr.required(rp.child('http', 'paths'), ''));
      paths.forEach((pth, j) => errs.push(...validateHTTPPath(o(pth), rp.child('http', 'paths').index(j))));
    }
  });
  a(sp.tls).forEach((t, i) => {
    a(o(t).hosts).forEach((h, j) => {
      const host = s(h);
      const hp = p.child('tls').index(i).child('hosts').index(j);
      if (host.includes('*')) errs.push(...msgs(hp, host, isWildcardDNS1123Subdomain(host)));
      else errs.push(...msgs(hp, host, isDNS1123Subdomain(host)));
    });
  });
  if (has(sp.ingressClassName)) errs.push(...msgs(p.child('ingressClassName'), s(sp.ingressClassName), isDNS1123Subdomain(s(sp.ingressClassName))));
  return errs;
}

export function validateIngress(ing: Loose): Errs {
  return [...validateObjectMeta(ing.metadata, true, nameIsDNSSubdomain), ...validateIngressSpec(ing.spec)];
}
export function validateIngressUpdate(ing: Loose, old: Loose): Errs {
  return [...validateObjectMetaUpdate(ing.metadata, old.metadata), ...validateIngressSpec(ing.spec)];
}
export function validateIngressStatusUpdate(ing: Loose, old: Loose): Errs {
  const errs = validateObjectMetaUpdate(ing.metadata, old.metadata);
  a(o(o(ing.status).loadBalancer).ingress).forEach((i, idx) => {
    const ip = s(o(i).ip);
    if (ip && !isIP(ip)) errs.push(fieldErr.invalid(root('status', 'loadBalancer', 'ingress').index(idx).child('ip'), ip, 'must be a valid IP address'));
  });
  return errs;
}

export function validateIngressClass(ic: Loose): Errs {
  const errs = validateObjectMeta(ic.metadata, false, nameIsDNSSubdomain);
  const ctrl = s(o(ic.spec).controller);
  const p = root('spec', 'controller');
  if (ctrl.length > 250) errs.push(fieldErr.tooLong(p, ctrl, 250));
  if (!ctrl) errs.push(fieldErr.required(p, ''));
  else {
    const [host, rest] = [ctrl.split('/')[0]!, ctrl.split('/').slice(1).join('/')];
    if (!ctrl.includes('/') || !host || !rest) errs.push(fieldErr.invalid(p, ctrl, 'must be a domain-prefixed path (such as "acme.io/foo")'));
    else errs.push(...msgs(p, host, isDNS1123Subdomain(host)));
  }
  return errs;
}
export function validateIngressClassUpdate(ic: Loose, old: Loose): Errs {
  const errs = [...validateObjectMetaUpdate(ic.metadata, old.metadata), ...validateIngressClass(ic)];
  errs.push(...immutable(o(ic.spec).controller, o(old.spec).controller, root('spec', 'controller')));
  return errs;
}
