// policy/v1 PodDisruptionBudget, scheduling.k8s.io PriorityClass, storage.k8s.io
// StorageClass, coordination.k8s.io Lease and discovery.k8s.io EndpointSlice
// (pkg/apis/{policy,scheduling,storage,coordination,discovery}/validation/validation.go).
import { isDNS1123Label, isDNS1123Subdomain, isIPv4, isIPv6, isQualifiedName, isValidPercent } from '../../apimachinery/validation/names';
import { nameIsDNSSubdomain } from './names';
import { validateLabels, validateLabelSelector, validateObjectMeta, validateObjectMetaUpdate } from './objectMeta';
import { a, deepEqual, fieldErr, FieldPath, has, immutable, keys, msgs, n, nonNegative, o, root, s, sortedKeys, type Errs, type Loose } from './util';

function positiveIntOrPercent(v: unknown, p: FieldPath): Errs {
  const errs: Errs = [];
  if (typeof v === 'string') errs.push(...isValidPercent(v).map((m) => fieldErr.invalid(p, v, m)));
  else if (typeof v === 'number') errs.push(...nonNegative(v, p));
  else errs.push(fieldErr.invalid(p, v ?? null, "must be an integer or percentage (e.g '5%%')"));
  if (typeof v === 'string' && !isValidPercent(v).length && Number(v.slice(0, -1)) > 100) errs.push(fieldErr.invalid(p, v, 'must not be greater than 100%'));
  return errs;
}

export function validatePodDisruptionBudget(pdb: Loose): Errs {
  const sp = o(pdb.spec);
  const p = root('spec');
  const errs: Errs = [];
  if (has(sp.minAvailable) && has(sp.maxUnavailable)) errs.push(fieldErr.invalid(p, sp, 'minAvailable and maxUnavailable cannot be both set'));
  if (has(sp.minAvailable)) errs.push(...positiveIntOrPercent(sp.minAvailable, p.child('minAvailable')));
  if (has(sp.maxUnavailable)) errs.push(...positiveIntOrPercent(sp.maxUnavailable, p.child('maxUnavailable')));
  errs.push(...validateLabelSelector(sp.selector, {}, p.child('selector')));
  if (has(sp.unhealthyPodEvictionPolicy) && !['AlwaysAllow', 'IfHealthyBudget'].includes(s(sp.unhealthyPodEvictionPolicy))) {
    errs.push(fieldErr.notSupported(p.child('unhealthyPodEvictionPolicy'), sp.unhealthyPodEvictionPolicy, ['AlwaysAllow', 'IfHealthyBudget']));
  }
  return errs;
}

export function validatePodDisruptionBudgetStatusUpdate(pdb: Loose, old: Loose): Errs {
  const errs = validateObjectMetaUpdate(pdb.metadata, old.metadata);
  const st = o(pdb.status);
  const p = root('status');
  for (const k of ['disruptionsAllowed', 'currentHealthy', 'desiredHealthy', 'expectedPods']) errs.push(...nonNegative(st[k], p.child(k)));
  return errs;
}

// ---------------------------------------------------------------- PriorityClass

export const HIGHEST_USER_DEFINABLE_PRIORITY = 1_000_000_000;
const SYSTEM_CLASSES: Record<string, number> = { 'system-node-critical': 2000001000, 'system-cluster-critical': 2000000000 };

export function validatePriorityClass(pc: Loose): Errs {
  const errs = validateObjectMeta(pc.metadata, false, nameIsDNSSubdomain);
  const name = s(o(pc.metadata).name);
  const value = n(pc.value);
  if (name.startsWith('system-')) {
    let why: string | null = null;
    if (!Object.hasOwn(SYSTEM_CLASSES, name)) why = `${name} is not a known system priority class`;
    else if (SYSTEM_CLASSES[name] !== value) why = `value of ${name} PriorityClass must be ${SYSTEM_CLASSES[name]}`;
    else if (pc.globalDefault === true) why = `globalDefault of ${name} PriorityClass must be false`;
    if (why) errs.push(fieldErr.forbidden(root('metadata', 'name'), `priority class names with 'system-' prefix are reserved for system use only. error: ${why}`));
  } else if (value > HIGHEST_USER_DEFINABLE_PRIORITY) {
    errs.push(fieldErr.forbidden(root('value'), `maximum allowed value of a user defined priority is ${HIGHEST_USER_DEFINABLE_PRIORITY}`));
  }
  if (has(pc.preemptionPolicy) && !['PreemptLowerPriority', 'Never'].includes(s(pc.preemptionPolicy))) {
    errs.push(fieldErr.notSupported(root('preemptionPolicy'), pc.preemptionPolicy, ['PreemptLowerPriority', 'Never']));
  }
  return errs;
}

export function validatePriorityClassUpdate(pc: Loose, old: Loose): Errs {
  const errs = validateObjectMetaUpdate(pc.metadata, old.metadata);
  if (n(pc.value) !== n(old.value)) errs.push(fieldErr.forbidden(root('value'), 'may not be changed in an update.'));
  errs.push(...immutable(pc.preemptionPolicy, old.preemptionPolicy, root('preemptionPolicy')));
  return errs;
}

// ---------------------------------------------------------------- StorageClass

export function validateStorageClass(sc: Loose): Errs {
  const errs = validateObjectMeta(sc.metadata, false, nameIsDNSSubdomain);
  const prov = s(sc.provisioner);
  if (!prov) errs.push(fieldErr.required(root('provisioner'), ''));
  else errs.push(...msgs(root('provisioner'), prov.toLowerCase(), isQualifiedName(prov.toLowerCase())));
  const params = o(sc.parameters) as Record<string, unknown>;
  if (keys(params).length > 512) errs.push(fieldErr.tooLong(root('parameters'), 'Provisioner Parameters exceeded max allowed', 512));
  else {
    let total = 0;
    for (const k of sortedKeys(params)) {
      if (k.length < 1) errs.push(fieldErr.invalid(root('parameters'), k, 'field can not be empty.'));
      total += k.length + s(params[k]).length;
    }
    if (total > 256 * 1024) errs.push(fieldErr.tooLong(root('parameters'), '', 256 * 1024));
  }
  if (s(sc.reclaimPolicy) && !['Delete', 'Retain'].includes(s(sc.reclaimPolicy))) errs.push(fieldErr.notSupported(root('reclaimPolicy'), sc.reclaimPolicy, ['Delete', 'Retain']));
  if (!has(sc.volumeBindingMode)) errs.push(fieldErr.required(root('volumeBindingMode'), ''));
  else if (!['Immediate', 'WaitForFirstConsumer'].includes(s(sc.volumeBindingMode))) {
    errs.push(fieldErr.notSupported(root('volumeBindingMode'), sc.volumeBindingMode, ['Immediate', 'WaitForFirstConsumer']));
  }
  a(sc.allowedTopologies).forEach((t, i) => {
    const tp = root('allowedTopologies').index(i);
    const exprs = a(o(t).matchLabelExpressions);
    if (exprs.length === 0) errs.push(fieldErr.required(tp.child('matchLabelExpressions'), 'must have at least one label expression'));
    exprs.forEach((e, j) => {
      const ep = tp.child('matchLabelExpressions').index(j);
      errs.push(...msgs(ep.child('key'), s(o(e).key), isQualifiedName(s(o(e).key))));
      if (a(o(e).values).length === 0) errs.push(fieldErr.required(ep.child('values'), 'must specify as least one value'));
    });
  });
  return errs;
}

export function validateStorageClassUpdate(sc: Loose, old: Loose): Errs {
  const errs = validateObjectMetaUpdate(sc.metadata, old.metadata);
  if (!deepEqual(sc.parameters, old.parameters)) errs.push(fieldErr.forbidden(root('parameters'), 'updates to parameters are forbidden.'));
  if (s(sc.provisioner) !== s(old.provisioner)) errs.push(fieldErr.forbidden(root('provisioner'), 'updates to provisioner are forbidden.'));
  if (s(sc.reclaimPolicy) !== s(old.reclaimPolicy)) errs.push(fieldErr.forbidden(root('reclaimPolicy'), 'updates to reclaimPolicy are forbidden.'));
  errs.push(...immutable(sc.volumeBindingMode, old.volumeBindingMode, root('volumeBindingMode')));
  return errs;
}

// ---------------------------------------------------------------- Lease

export function validateLease(lease: Loose): Errs {
  const errs = validateObjectMeta(lease.metadata, true, nameIsDNSSubdomain);
  const sp = o(lease.spec);
  const p = root('spec');
  if (has(sp.leaseDurationSeconds) && n(sp.leaseDurationSeconds) <= 0) errs.push(fieldErr.invalid(p.child('leaseDurationSeconds'), n(sp.leaseDurationSeconds), 'must be greater than 0'));
  if (has(sp.leaseTransitions) && n(sp.leaseTransitions) < 0) errs.push(fieldErr.invalid(p.child('leaseTransitions'), n(sp.leaseTransitions), 'must be greater than or equal to 0'));
  if (has(sp.strategy) && s(sp.strategy) !== 'OldestEmulationVersion') errs.push(fieldErr.notSupported(p.child('strategy'), sp.strategy, ['OldestEmulationVersion']));
  if (has(sp.preferredHolder) && !has(sp.strategy)) errs.push(fieldErr.forbidden(p.child('preferredHolder'), 'may only be specified if `strategy` is defined'));
  return errs;
}
export function validateLeaseUpdate(lease: Loose, old: Loose): Errs {
  return [...validateObjectMetaUpdate(lease.metadata, old.metadata), ...validateLease(lease)];
}

// ---------------------------------------------------------------- EndpointSlice

function isFQDN(p: FieldPath, name: string): Errs {
  if (!name) return [fieldErr.required(p, '')];
  const trimmed = name.endsWith('.') ? name.slice(0, -1) : name;
  const sub = isDNS1123Subdomain(trimmed);
  if (sub.length) return [fieldErr.invalid(p, trimmed, sub.join(','))];
  if (trimmed.split('.').length < 2) return [fieldErr.invalid(p, trimmed, 'should be a domain with at least two segments separated by dots')];
  for (const label of trimmed.split('.')) {
    const m = isDNS1123Label(label);
    if (m.length) return [fieldErr.invalid(p, label, m.join(','))];
  }
  return [];
}

export function validateEndpointSlice(es: Loose): Errs {
  const errs = validateObjectMeta(es.metadata, true, nameIsDNSSubdomain);
  const at = s(es.addressType);
  if (!at) errs.push(fieldErr.required(root('addressType'), ''));
  else if (!['FQDN', 'IPv4', 'IPv6'].includes(at)) errs.push(fieldErr.notSupported(root('addressType'), at, ['FQDN', 'IPv4', 'IPv6']));
  const eps = a(es.endpoints);
  if (eps.length > 1000) errs.push(fieldErr.tooMany(root('endpoints'), eps.length, 1000));
  eps.forEach((ep, i) => {
    const ip = root('endpoints').index(i);
    const e = o(ep);
    const ap = ip.child('addresses');
    const addrs = a(e.addresses);
    if (addrs.length === 0) errs.push(fieldErr.required(ap, 'must contain at least 1 address'));
    else if (addrs.length > 100) errs.push(fieldErr.tooMany(ap, addrs.length, 100));
    addrs.forEach((ad, j) => {
      const v = s(ad);
      if (at === 'IPv4' && !isIPv4(v)) errs.push(fieldErr.invalid(ap.index(j), v, 'must be a valid IPv4 address'));
      if (at === 'IPv6' && !isIPv6(v)) errs.push(fieldErr.invalid(ap.index(j), v, 'must be a valid IPv6 address'));
      if (at === 'FQDN') errs.push(...isFQDN(ap.index(j), v));
    });
    if (has(e.nodeName)) errs.push(...msgs(ip.child('nodeName'), s(e.nodeName), isDNS1123Subdomain(s(e.nodeName))));
    errs.push(...validateLabels(e.deprecatedTopology, ip.child('deprecatedTopology')));
    if (has(e.hostname)) errs.push(...msgs(ip.child('hostname'), s(e.hostname), isDNS1123Label(s(e.hostname))));
  });
  const names = new Set<string>();
  a(es.ports).forEach((pt, i) => {
    const pp = root('ports').index(i);
    const port = o(pt);
    const name = s(port.name);
    if (name) errs.push(...msgs(pp.child('name'), name, isDNS1123Label(name)));
    if (names.has(name)) errs.push(fieldErr.duplicate(pp.child('name'), name));
    else names.add(name);
    if (!has(port.protocol)) errs.push(fieldErr.required(pp.child('protocol'), ''));
    else if (!['SCTP', 'TCP', 'UDP'].includes(s(port.protocol))) errs.push(fieldErr.notSupported(pp.child('protocol'), port.protocol, ['SCTP', 'TCP', 'UDP']));
    if (has(port.appProtocol)) errs.push(...msgs(pp.child('appProtocol'), s(port.appProtocol), isQualifiedName(s(port.appProtocol))));
  });
  return errs;
}

export function validateEndpointSliceUpdate(es: Loose, old: Loose): Errs {
  const errs = [...validateObjectMetaUpdate(es.metadata, old.metadata), ...validateEndpointSlice(es)];
  errs.push(...immutable(s(es.addressType), s(old.addressType), root('addressType')));
  return errs;
}
