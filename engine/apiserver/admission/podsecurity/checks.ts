// The Pod Security Standards checks of pod-security-admission v1.32
// (staging/src/k8s.io/pod-security-admission/policy/check_*.go), with their
// reasons and details word for word. Each check has versions (the policy
// minor it starts at); a restricted check may override baseline ones.
import { bool, isRec, num, path, rec, recs, str, strs, stringMap, type Rec } from '../json';

export interface CheckResult {
  allowed: boolean;
  forbiddenReason?: string;
  forbiddenDetail?: string;
}

export interface Check {
  id: string;
  level: 'baseline' | 'restricted';
  /** Versions in increasing minimum minor; the newest one not above the evaluated minor applies. */
  versions: { minMinor: number; check: (meta: Rec, spec: Rec) => CheckResult }[];
  /** Baseline check ids this restricted check replaces at the restricted level. */
  overrides?: string[];
}

const ALLOWED: CheckResult = { allowed: true };

function forbidden(reason: string, detail: string): CheckResult {
  return { allowed: false, forbiddenReason: reason, forbiddenDetail: detail };
}

export function joinQuote(items: readonly string[]): string {
  return items.length === 0 ? '' : `"${items.join('", "')}"`;
}

export function pluralize(singular: string, plural: string, count: number): string {
  return count === 1 ? singular : plural;
}

/** Init containers, then containers, then ephemeral containers (visitContainers). */
export function visitContainers(spec: Rec): Rec[] {
  return [...recs(spec['initContainers']), ...recs(spec['containers']), ...recs(spec['ephemeralContainers'])];
}

function name(c: Rec): string {
  return str(c['name']) ?? '';
}

function sorted(set: Set<string>): string[] {
  return [...set].sort();
}

function sc(c: Rec): Rec | undefined {
  return rec(c['securityContext']);
}

// ---- baseline ----

const ALLOWED_APPARMOR_TYPES = new Set(['RuntimeDefault', 'Localhost']);
const APPARMOR_ANNOTATION_PREFIX = 'container.apparmor.security.beta.kubernetes.io/';

function appArmorProfile(meta: Rec, spec: Rec): CheckResult {
  const badSetters: string[] = [];
  const badValues = new Set<string>();
  const podType = str(path(spec, 'securityContext', 'appArmorProfile', 'type'));
  if (podType !== undefined && !ALLOWED_APPARMOR_TYPES.has(podType)) {
    badSetters.push('pod');
    badValues.add(podType);
  }
  const badContainers: string[] = [];
  for (const c of visitContainers(spec)) {
    const t = str(path(c, 'securityContext', 'appArmorProfile', 'type'));
    if (t !== undefined && !ALLOWED_APPARMOR_TYPES.has(t)) {
      badContainers.push(name(c));
      badValues.add(t);
    }
  }
  if (badContainers.length) badSetters.push(`${pluralize('container', 'containers', badContainers.length)} ${joinQuote(badContainers)}`);
  const badAnnotations: string[] = [];
  for (const [k, v] of Object.entries(stringMap(meta['annotations']))) {
    if (k.startsWith(APPARMOR_ANNOTATION_PREFIX) && !(v === '' || v === 'runtime/default' || v.startsWith('localhost/'))) {
      badAnnotations.push(`${k}=${JSON.stringify(v)}`);
    }
  }
  const values = [...sorted(badValues), ...badAnnotations.sort()];
  if (badSetters.length === 0 && badAnnotations.length === 0) return ALLOWED;
  return forbidden(pluralize('forbidden AppArmor profile', 'forbidden AppArmor profiles', values.length), values.join(', '));
}

const CAPABILITIES_ALLOWED_1_0 = new Set(['AUDIT_WRITE', 'CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'KILL', 'MKNOD', 'NET_BIND_SERVICE', 'SETFCAP', 'SETGID', 'SETPCAP', 'SETUID', 'SYS_CHROOT']);

function capabilitiesBaseline(_meta: Rec, spec: Rec): CheckResult {
  const bad: string[] = [];
  const caps = new Set<string>();
  for (const c of visitContainers(spec)) {
    let valid = true;
    for (const cap of strs(path(c, 'securityContext', 'capabilities', 'add'))) {
      if (!CAPABILITIES_ALLOWED_1_0.has(cap)) {
        valid = false;
        caps.add(cap);
      }
    }
    if (!valid) bad.push(name(c));
  }
  if (bad.length === 0) return ALLOWED;
  return forbidden(
    'non-default capabilities',
    `${pluralize('container', 'containers', bad.length)} ${joinQuote(bad)} must not include ${joinQuote(sorted(caps))} in securityContext.capabilities.add`,
  );
}

function hostNamespaces(_meta: Rec, spec: Rec): CheckResult {
  const set = new Set<string>();
  if (spec['hostNetwork'] === true) set.add('hostNetwork');
  if (spec['hostPID'] === true) set.add('hostPID');
  if (spec['hostIPC'] === true) set.add('hostIPC');
  return set.size ? forbidden('host namespaces', sorted(set).join(', ')) : ALLOWED;
}

function hostPathVolumes(_meta: Rec, spec: Rec): CheckResult {
  const vols = recs(spec['volumes'])
    .filter((v) => isRec(v['hostPath']))
    .map((v) => str(v['name']) ?? '');
  return vols.length ? forbidden('hostPath volumes', `${pluralize('volume', 'volumes', vols.length)} ${joinQuote(vols)}`) : ALLOWED;
}

function hostPorts(_meta: Rec, spec: Rec): CheckResult {
  const bad: string[] = [];
  const ports = new Set<string>();
  for (const c of visitContainers(spec)) {
    let valid = true;
    for (const p of recs(c['ports'])) {
      const hp = num(p['hostPort']) ?? 0;
      if (hp !== 0) {
        valid = false;
        ports.add(String(hp));
      }
    }
    if (!valid) bad.push(name(c));
  }
  if (bad.length === 0) return ALLOWED;
  return forbidden(
    'hostPort',
    `${pluralize('container', 'containers', bad.length)} ${joinQuote(bad)} ${pluralize('uses', 'use', bad.length)} ${pluralize('hostPort', 'hostPorts', ports.size)} ${sorted(ports).join(', ')}`,
  );
}

function privileged(_meta: Rec, spec: Rec): CheckResult {
  const bad = visitContainers(spec)
    .filter((c) => sc(c)?.['privileged'] === true)
    .map(name);
  return bad.length ? forbidden('privileged', `${pluralize('container', 'containers', bad.length)} ${joinQuote(bad)} must not set securityContext.privileged=true`) : ALLOWED;
}

function procMount(_meta: Rec, spec: Rec): CheckResult {
  const bad: string[] = [];
  const types = new Set<string>();
  for (const c of visitContainers(spec)) {
    const pm = str(sc(c)?.['procMount']);
    if (pm !== undefined && pm !== 'Default') {
      bad.push(name(c));
      types.add(pm);
    }
  }
  if (bad.length === 0) return ALLOWED;
  return forbidden('procMount', `${pluralize('container', 'containers', bad.length)} ${joinQuote(bad)} must not set securityContext.procMount to ${joinQuote(sorted(types))}`);
}

const SELINUX_ALLOWED_TYPES = new Set(['', 'container_t', 'container_init_t', 'container_kvm_t']);

function seLinuxOptions(_meta: Rec, spec: Rec): CheckResult {
  const badSetters: string[] = [];
  const badTypes = new Set<string>();
  let setUser = false;
  let setRole = false;
  const valid = (opts: Rec): boolean => {
    let ok = true;
    const t = str(opts['type']) ?? '';
    if (!SELINUX_ALLOWED_TYPES.has(t)) {
      ok = false;
      badTypes.add(t);
    }
    if ((str(opts['user']) ?? '') !== '') {
      ok = false;
      setUser = true;
    }
    if ((str(opts['role']) ?? '') !== '') {
      ok = false;
      setRole = true;
    }
    return ok;
  };
  const podOpts = rec(path(spec, 'securityContext', 'seLinuxOptions'));
  if (podOpts && !valid(podOpts)) badSetters.push('pod');
  const bad: string[] = [];
  for (const c of visitContainers(spec)) {
    const opts = rec(sc(c)?.['seLinuxOptions']);
    if (opts && !valid(opts)) bad.push(name(c));
  }
  if (bad.length) badSetters.push(`${pluralize('container', 'containers', bad.length)} ${joinQuote(bad)}`);
  if (badSetters.length === 0) return ALLOWED;
  // Upstream lists user/role only alongside a bad type; kept as it is.
  const badData: string[] = [];
  if (badTypes.size) {
    badData.push(`${pluralize('type', 'types', badTypes.size)} ${joinQuote(sorted(badTypes))}`);
    if (setUser) badData.push('user may not be set');
    if (setRole) badData.push('role may not be set');
  }
  return forbidden('seLinuxOptions', `${badSetters.join(' and ')} set forbidden securityContext.seLinuxOptions: ${badData.join('; ')}`);
}

const SECCOMP_POD_ANNOTATION = 'seccomp.security.alpha.kubernetes.io/pod';
const SECCOMP_CONTAINER_ANNOTATION_PREFIX = 'container.seccomp.security.alpha.kubernetes.io/';

function validSeccomp(t: string): boolean {
  return t === 'Localhost' || t === 'RuntimeDefault';
}

function seccompProfileBaseline_1_0(meta: Rec, spec: Rec): CheckResult {
  const ann = stringMap(meta['annotations']);
  const validAnnotation = (v: string) => v === 'runtime/default' || v === 'docker/default' || v.startsWith('localhost/');
  const bad = new Set<string>();
  const podVal = ann[SECCOMP_POD_ANNOTATION];
  if (podVal !== undefined && !validAnnotation(podVal)) bad.add(`${SECCOMP_POD_ANNOTATION}=${JSON.stringify(podVal)}`);
  for (const c of visitContainers(spec)) {
    const key = SECCOMP_CONTAINER_ANNOTATION_PREFIX + name(c);
    const v = ann[key];
    if (v !== undefined && !validAnnotation(v)) bad.add(`${key}=${JSON.stringify(v)}`);
  }
  if (bad.size === 0) return ALLOWED;
  return forbidden('seccompProfile', `forbidden ${pluralize('annotation', 'annotations', bad.size)} ${sorted(bad).join(', ')}`);
}

/** Pod and containers that explicitly set a bad seccompProfile.type. */
function explicitSeccomp(spec: Rec): { badSetters: string[]; badValues: Set<string>; podValid: boolean; implicit: string[] } {
  const badSetters: string[] = [];
  const badValues = new Set<string>();
  let podValid = false;
  const podProfile = rec(path(spec, 'securityContext', 'seccompProfile'));
  if (podProfile) {
    const t = str(podProfile['type']) ?? '';
    if (!validSeccomp(t)) {
      badSetters.push('pod');
      badValues.add(t);
    } else podValid = true;
  }
  const explicit: string[] = [];
  const implicit: string[] = [];
  for (const c of visitContainers(spec)) {
    const prof = rec(sc(c)?.['seccompProfile']);
    if (prof) {
      const t = str(prof['type']) ?? '';
      if (!validSeccomp(t)) {
        explicit.push(name(c));
        badValues.add(t);
      }
    } else if (!podValid) implicit.push(name(c));
  }
  if (explicit.length) badSetters.push(`${pluralize('container', 'containers', explicit.length)} ${joinQuote(explicit)}`);
  return { badSetters, badValues, podValid, implicit };
}

function seccompProfileBaseline_1_19(_meta: Rec, spec: Rec): CheckResult {
  const { badSetters, badValues } = explicitSeccomp(spec);
  if (badSetters.length === 0) return ALLOWED;
  return forbidden('seccompProfile', `${badSetters.join(' and ')} must not set securityContext.seccompProfile.type to ${joinQuote(sorted(badValues))}`);
}

const SYSCTLS_1_0 = ['kernel.shm_rmid_forced', 'net.ipv4.ip_local_port_range', 'net.ipv4.tcp_syncookies', 'net.ipv4.ping_group_range', 'net.ipv4.ip_unprivileged_port_start'];
const SYSCTLS_1_27 = [...SYSCTLS_1_0, 'net.ipv4.ip_local_reserved_ports'];
const SYSCTLS_1_29 = [...SYSCTLS_1_27, 'net.ipv4.tcp_keepalive_time', 'net.ipv4.tcp_fin_timeout', 'net.ipv4.tcp_keepalive_intvl', 'net.ipv4.tcp_keepalive_probes'];
const SYSCTLS_1_32 = [...SYSCTLS_1_29, 'net.ipv4.tcp_rmem', 'net.ipv4.tcp_wmem'];

function sysctls(allowed: readonly string[]) {
  const set = new Set(allowed);
  return (_meta: Rec, spec: Rec): CheckResult => {
    const bad = recs(path(spec, 'securityContext', 'sysctls'))
      .map((s) => str(s['name']) ?? '')
      .filter((n) => !set.has(n));
    return bad.length ? forbidden('forbidden sysctls', bad.join(', ')) : ALLOWED;
  };
}

function windowsHostProcess(_meta: Rec, spec: Rec): CheckResult {
  const bad = visitContainers(spec)
    .filter((c) => bool(path(c, 'securityContext', 'windowsOptions', 'hostProcess')) === true)
    .map(name);
  const setters: string[] = [];
  if (bool(path(spec, 'securityContext', 'windowsOptions', 'hostProcess')) === true) setters.push('pod');
  if (bad.length) setters.push(`${pluralize('container', 'containers', bad.length)} ${joinQuote(bad)}`);
  return setters.length ? forbidden('hostProcess', `${setters.join(' and ')} must not set securityContext.windowsOptions.hostProcess=true`) : ALLOWED;
}

// ---- restricted ----

function allowPrivilegeEscalation(_meta: Rec, spec: Rec): CheckResult {
  const bad = visitContainers(spec)
    .filter((c) => sc(c)?.['allowPrivilegeEscalation'] !== false)
    .map(name);
  return bad.length
    ? forbidden('allowPrivilegeEscalation != false', `${pluralize('container', 'containers', bad.length)} ${joinQuote(bad)} must set securityContext.allowPrivilegeEscalation=false`)
    : ALLOWED;
}

function capabilitiesRestricted(_meta: Rec, spec: Rec): CheckResult {
  const missingDropAll: string[] = [];
  const addingForbidden: string[] = [];
  const caps = new Set<string>();
  for (const c of visitContainers(spec)) {
    const capabilities = rec(sc(c)?.['capabilities']);
    if (!capabilities) {
      missingDropAll.push(name(c));
      continue;
    }
    if (!strs(capabilities['drop']).includes('ALL')) missingDropAll.push(name(c));
    let added = false;
    for (const cap of strs(capabilities['add'])) {
      if (cap !== 'NET_BIND_SERVICE') {
        added = true;
        caps.add(cap);
      }
    }
    if (added) addingForbidden.push(name(c));
  }
  const details: string[] = [];
  if (missingDropAll.length) {
    details.push(`${pluralize('container', 'containers', missingDropAll.length)} ${joinQuote(missingDropAll)} must set securityContext.capabilities.drop=["ALL"]`);
  }
  if (addingForbidden.length) {
    details.push(
      `${pluralize('container', 'containers', addingForbidden.length)} ${joinQuote(addingForbidden)} must not include ${joinQuote(sorted(caps))} in securityContext.capabilities.add`,
    );
  }
  return details.length ? forbidden('unrestricted capabilities', details.join('; ')) : ALLOWED;
}

const ALLOWED_VOLUME_SOURCES = ['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'persistentVolumeClaim', 'projected', 'secret'];
const RESTRICTED_VOLUME_TYPES = [
  'hostPath',
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'gitRepo',
  'nfs',
  'iscsi',
  'glusterfs',
  'rbd',
  'flexVolume',
  'cinder',
  'cephfs',
  'flocker',
  'fc',
  'azureFile',
  'vsphereVolume',
  'quobyte',
  'azureDisk',
  'photonPersistentDisk',
  'portworxVolume',
  'scaleIO',
  'storageos',
];

function restrictedVolumes(_meta: Rec, spec: Rec): CheckResult {
  const bad: string[] = [];
  const types = new Set<string>();
  for (const v of recs(spec['volumes'])) {
    if (ALLOWED_VOLUME_SOURCES.some((s) => isRec(v[s]))) continue;
    bad.push(str(v['name']) ?? '');
    types.add(RESTRICTED_VOLUME_TYPES.find((t) => isRec(v[t])) ?? 'unknown');
  }
  if (bad.length === 0) return ALLOWED;
  return forbidden(
    'restricted volume types',
    `${pluralize('volume', 'volumes', bad.length)} ${joinQuote(bad)} ${pluralize('uses', 'use', bad.length)} ${pluralize('restricted volume type', 'restricted volume types', types.size)} ${joinQuote(sorted(types))}`,
  );
}

function runAsNonRoot(_meta: Rec, spec: Rec): CheckResult {
  const badSetters: string[] = [];
  let podNonRoot = false;
  const podVal = bool(path(spec, 'securityContext', 'runAsNonRoot'));
  if (podVal === false) badSetters.push('pod');
  else if (podVal === true) podNonRoot = true;
  const explicit: string[] = [];
  const implicit: string[] = [];
  for (const c of visitContainers(spec)) {
    const v = bool(sc(c)?.['runAsNonRoot']);
    if (v !== undefined) {
      if (!v) explicit.push(name(c));
    } else if (!podNonRoot) implicit.push(name(c));
  }
  if (explicit.length) badSetters.push(`${pluralize('container', 'containers', explicit.length)} ${joinQuote(explicit)}`);
  if (badSetters.length) return forbidden('runAsNonRoot != true', `${badSetters.join(' and ')} must not set securityContext.runAsNonRoot=false`);
  if (implicit.length) {
    return forbidden('runAsNonRoot != true', `pod or ${pluralize('container', 'containers', implicit.length)} ${joinQuote(implicit)} must set securityContext.runAsNonRoot=true`);
  }
  return ALLOWED;
}

function runAsUser(_meta: Rec, spec: Rec): CheckResult {
  const badSetters: string[] = [];
  if (num(path(spec, 'securityContext', 'runAsUser')) === 0) badSetters.push('pod');
  const bad = visitContainers(spec)
    .filter((c) => num(sc(c)?.['runAsUser']) === 0)
    .map(name);
  if (bad.length) badSetters.push(`${pluralize('container', 'containers', bad.length)} ${joinQuote(bad)}`);
  return badSetters.length ? forbidden('runAsUser=0', `${badSetters.join(' and ')} must not set runAsUser=0`) : ALLOWED;
}

function seccompProfileRestricted(_meta: Rec, spec: Rec): CheckResult {
  const { badSetters, badValues, implicit } = explicitSeccomp(spec);
  if (badSetters.length) return forbidden('seccompProfile', `${badSetters.join(' and ')} must not set securityContext.seccompProfile.type to ${joinQuote(sorted(badValues))}`);
  if (implicit.length) {
    return forbidden(
      'seccompProfile',
      `pod or ${pluralize('container', 'containers', implicit.length)} ${joinQuote(implicit)} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"`,
    );
  }
  return ALLOWED;
}

export const CHECKS: readonly Check[] = [
  { id: 'appArmorProfile', level: 'baseline', versions: [{ minMinor: 0, check: appArmorProfile }] },
  { id: 'capabilities_baseline', level: 'baseline', versions: [{ minMinor: 0, check: capabilitiesBaseline }] },
  { id: 'hostNamespaces', level: 'baseline', versions: [{ minMinor: 0, check: hostNamespaces }] },
  { id: 'hostPathVolumes', level: 'baseline', versions: [{ minMinor: 0, check: hostPathVolumes }] },
  { id: 'hostPorts', level: 'baseline', versions: [{ minMinor: 0, check: hostPorts }] },
  { id: 'privileged', level: 'baseline', versions: [{ minMinor: 0, check: privileged }] },
  { id: 'procMount', level: 'baseline', versions: [{ minMinor: 0, check: procMount }] },
  { id: 'seLinuxOptions', level: 'baseline', versions: [{ minMinor: 0, check: seLinuxOptions }] },
  {
    id: 'seccompProfile_baseline',
    level: 'baseline',
    versions: [
      { minMinor: 0, check: seccompProfileBaseline_1_0 },
      { minMinor: 19, check: seccompProfileBaseline_1_19 },
    ],
  },
  {
    id: 'sysctls',
    level: 'baseline',
    versions: [
      { minMinor: 0, check: sysctls(SYSCTLS_1_0) },
      { minMinor: 27, check: sysctls(SYSCTLS_1_27) },
      { minMinor: 29, check: sysctls(SYSCTLS_1_29) },
      { minMinor: 32, check: sysctls(SYSCTLS_1_32) },
    ],
  },
  { id: 'windowsHostProcess', level: 'baseline', versions: [{ minMinor: 0, check: windowsHostProcess }] },
  { id: 'allowPrivilegeEscalation', level: 'restricted', versions: [{ minMinor: 8, check: allowPrivilegeEscalation }] },
  { id: 'capabilities_restricted', level: 'restricted', versions: [{ minMinor: 22, check: capabilitiesRestricted }], overrides: ['capabilities_baseline'] },
  { id: 'restrictedVolumes', level: 'restricted', versions: [{ minMinor: 0, check: restrictedVolumes }], overrides: ['hostPathVolumes'] },
  { id: 'runAsNonRoot', level: 'restricted', versions: [{ minMinor: 0, check: runAsNonRoot }] },
  { id: 'runAsUser', level: 'restricted', versions: [{ minMinor: 23, check: runAsUser }] },
  { id: 'seccompProfile_restricted', level: 'restricted', versions: [{ minMinor: 19, check: seccompProfileRestricted }], overrides: ['seccompProfile_baseline'] },
];
