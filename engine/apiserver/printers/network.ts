// Printers for Services and what routes to them (pkg/printers/internalversion/printers.go, v1.32).
import { formatLabels, formatLabelSelector, type LabelSelector } from '../../apimachinery/selectors/labels';
import { AGE_COLUMN, col, NAME_COLUMN, type Printer } from './types';
import { age, arr, int, isObj, joinHostPort, name, obj, optInt, optStr, sortedUnique, spec, status, str, strMap, type Obj } from './util';

/** loadBalancerStatusStringer with wide=true (the server always prints wide): IPs or hostnames, unique, sorted. */
function loadBalancerStatus(lb: unknown): string {
  const ingress = arr(obj(lb)['ingress']).map(obj);
  const result: string[] = [];
  for (const i of ingress) {
    if (str(i['ip']) !== '') result.push(str(i['ip']));
    else if (str(i['hostname']) !== '') result.push(str(i['hostname']));
  }
  return sortedUnique(result).join(',');
}

function serviceExternalIP(sp: Obj, st: Obj): string {
  const externalIPs = arr(sp['externalIPs']).map(str);
  switch (str(sp['type'])) {
    case 'ClusterIP':
    case 'NodePort':
      return externalIPs.length > 0 ? externalIPs.join(',') : '<none>';
    case 'LoadBalancer': {
      const lbIps = loadBalancerStatus(st['loadBalancer']);
      if (externalIPs.length > 0) return [...(lbIps.length > 0 ? lbIps.split(',') : []), ...externalIPs].join(',');
      return lbIps.length > 0 ? lbIps : '<pending>';
    }
    case 'ExternalName':
      return str(sp['externalName']);
    default:
      return '<unknown>';
  }
}

/** makePortString: `80/TCP`, `80:30080/TCP`. */
function makePortString(ports: Obj[]): string {
  return ports
    .map((p) => {
      const nodePort = int(p['nodePort']);
      return nodePort > 0 ? `${int(p['port'])}:${nodePort}/${str(p['protocol'])}` : `${int(p['port'])}/${str(p['protocol'])}`;
    })
    .join(',');
}

export const servicePrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Type', 'string', 'svc.spec.type'),
    col('Cluster-IP', 'string', 'svc.spec.clusterIP'),
    col('External-IP', 'string', 'svc.spec.externalIPs'),
    col('Port(s)', 'string', 'svc.spec.ports'),
    AGE_COLUMN,
    col('Selector', 'string', 'svc.spec.selector', { priority: 1 }),
  ],
  print(o, now) {
    const sp = spec(o);
    const clusterIPs = arr(sp['clusterIPs']).map(str);
    const internalIP = clusterIPs.length > 0 ? clusterIPs[0]! : '<none>';
    const ports = makePortString(arr(sp['ports']).map(obj)) || '<none>';
    return { cells: [name(o), str(sp['type']), internalIP, serviceExternalIP(sp, status(o)), ports, age(o, now), formatLabels(strMap(sp['selector']))] };
  },
};

/** formatEndpoints(endpoints, nil): up to three `ip:port`, then "+ N more...". */
function formatEndpoints(subsets: Obj[]): string {
  if (subsets.length === 0) return '<none>';
  const list: string[] = [];
  const max = 3;
  let more = false;
  let count = 0;
  for (const ss of subsets) {
    const addresses = arr(ss['addresses']).map(obj);
    const ports = arr(ss['ports']).map(obj);
    if (ports.length === 0) {
      // Headless services may have no ports.
      count += addresses.length;
      for (const a of addresses) {
        if (list.length === max) {
          more = true;
          break;
        }
        list.push(str(a['ip']));
      }
      continue;
    }
    for (const port of ports) {
      count += addresses.length;
      for (const a of addresses) {
        if (list.length === max) {
          more = true;
          break;
        }
        list.push(joinHostPort(str(a['ip']), int(port['port'])));
      }
    }
  }
  const ret = list.join(',');
  return more ? `${ret} + ${count - max} more...` : ret;
}

export const endpointsPrinter: Printer = {
  columns: [NAME_COLUMN, col('Endpoints', 'string', 'ep.subsets'), AGE_COLUMN],
  print(o, now) {
    return { cells: [name(o), formatEndpoints(arr(o['subsets']).map(obj)), age(o, now)] };
  },
};

/** listWithMoreString: `<unset>` when empty. */
function listWithMore(list: string[], more: boolean, count: number, max: number): string {
  const ret = list.join(',');
  if (more) return `${ret} + ${count - max} more...`;
  return ret === '' ? '<unset>' : ret;
}

export const endpointSlicePrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('AddressType', 'string', 'eps.addressType'),
    col('Ports', 'string', 'eps.ports'),
    col('Endpoints', 'string', 'eps.endpoints'),
    AGE_COLUMN,
  ],
  print(o, now) {
    const max = 3;
    const ports: string[] = [];
    let portCount = 0;
    let morePorts = false;
    for (const p of arr(o['ports']).map(obj)) {
      if (ports.length < max) {
        const port = optInt(p['port']);
        const portName = optStr(p['name']);
        ports.push(port !== undefined ? String(port) : portName !== undefined ? portName : '*');
      } else if (ports.length === max) morePorts = true;
      portCount++;
    }
    const addrs: string[] = [];
    let addrCount = 0;
    let moreAddrs = false;
    for (const e of arr(o['endpoints']).map(obj)) {
      for (const a of arr(e['addresses']).map(str)) {
        if (addrs.length < max) addrs.push(a);
        else if (addrs.length === max) moreAddrs = true;
        addrCount++;
      }
    }
    return {
      cells: [name(o), str(o['addressType']), listWithMore(ports, morePorts, portCount, max), listWithMore(addrs, moreAddrs, addrCount, max), age(o, now)],
    };
  },
};

/** formatHosts: up to three hosts, `*` when no rule names one. */
function formatHosts(rules: Obj[]): string {
  const list: string[] = [];
  const max = 3;
  let more = false;
  for (const rule of rules) {
    if (list.length === max) more = true;
    if (!more && str(rule['host']) !== '') list.push(str(rule['host']));
  }
  if (list.length === 0) return '*';
  const ret = list.join(',');
  return more ? `${ret} + ${rules.length - max} more...` : ret;
}

export const ingressPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Class', 'string', { text: 'The name of the IngressClass resource that should be used for additional configuration' }),
    col('Hosts', 'string', { text: 'Hosts that incoming requests are matched against before the ingress rule' }),
    col('Address', 'string', { text: 'Address is a list containing ingress points for the load-balancer' }),
    col('Ports', 'string', { text: 'Ports of TLS configurations that open' }),
    AGE_COLUMN,
  ],
  print(o, now) {
    const sp = spec(o);
    const className = optStr(sp['ingressClassName']) ?? '<none>';
    const ports = arr(sp['tls']).length !== 0 ? '80, 443' : '80';
    return { cells: [name(o), className, formatHosts(arr(sp['rules']).map(obj)), loadBalancerStatus(status(o)['loadBalancer']), ports, age(o, now)] };
  },
};

export const ingressClassPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Controller', 'string', { text: 'Controller that is responsible for handling this class' }),
    col('Parameters', 'string', { text: 'A reference to a resource with additional parameters' }),
    AGE_COLUMN,
  ],
  print(o, now) {
    const sp = spec(o);
    let parameters = '<none>';
    if (isObj(sp['parameters'])) {
      const p = sp['parameters'];
      parameters = str(p['kind']);
      if (typeof p['apiGroup'] === 'string') parameters += `.${p['apiGroup']}`;
      parameters += `/${str(p['name'])}`;
    }
    return { cells: [name(o), str(sp['controller']), parameters, age(o, now)] };
  },
};

export const networkPolicyPrinter: Printer = {
  columns: [NAME_COLUMN, col('Pod-Selector', 'string', 'netpol.spec.podSelector'), AGE_COLUMN],
  print(o, now) {
    // podSelector is a struct, never nil: an absent one selects everything and prints "<none>".
    return { cells: [name(o), formatLabelSelector(obj(spec(o)['podSelector']) as LabelSelector), age(o, now)] };
  },
};
