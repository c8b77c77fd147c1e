// String formats and their messages (k8s.io/apimachinery/pkg/util/validation/validation.go
// and ip.go, v1.32). Each check returns the list of upstream's messages; callers wrap them in
// field errors. Shared by label selectors (apimachinery) and object validation (apiserver).
import { utf8Length } from '../../sim/utf8';

export const emptyError = (): string => 'must be non-empty';
export const maxLenError = (n: number): string => `must be no more than ${n} characters`;
export const inclusiveRangeError = (lo: number, hi: number): string => `must be between ${lo} and ${hi}, inclusive`;

/** validation.RegexError. */
export function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  // Built as upstream builds it, including the double space before each "or".
  let out = `${msg} (e.g. `;
  examples.forEach((e, i) => {
    if (i > 0) out += ' or ';
    out += `'${e}', `;
  });
  return `${out}regex used for validation is '${fmt}')`;
}

const QNAME_CHAR = '[A-Za-z0-9]';
const QNAME_EXT_CHAR = '[-A-Za-z0-9_.]';
export const QUALIFIED_NAME_FMT = `(${QNAME_CHAR}${QNAME_EXT_CHAR}*)?${QNAME_CHAR}`;
const QUALIFIED_NAME_ERR = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const QUALIFIED_NAME_RE = new RegExp(`^${QUALIFIED_NAME_FMT}$`);
const QUALIFIED_NAME_MAX = 63;

export const DNS1123_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_LABEL_ERR = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS1123_LABEL_RE = new RegExp(`^${DNS1123_LABEL_FMT}$`);
export const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
const DNS1123_SUBDOMAIN_ERR =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_RE = new RegExp(`^${DNS1123_SUBDOMAIN_FMT}$`);
const DNS1035_LABEL_FMT = '[a-z]([-a-z0-9]*[a-z0-9])?';
const DNS1035_LABEL_ERR =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";
const DNS1035_LABEL_RE = new RegExp(`^${DNS1035_LABEL_FMT}$`);
const LABEL_VALUE_FMT = `(${QUALIFIED_NAME_FMT})?`;
const LABEL_VALUE_ERR =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_RE = new RegExp(`^${LABEL_VALUE_FMT}$`);
const WILDCARD_FMT = `\\*\\.${DNS1123_SUBDOMAIN_FMT}`;
const WILDCARD_ERR =
  "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character";
const C_IDENT_FMT = '[A-Za-z_][A-Za-z0-9_]*';
const C_IDENT_ERR = "a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric characters or '_'";
const CONFIG_KEY_FMT = '[-._a-zA-Z0-9]+';
const CONFIG_KEY_ERR = "a valid config key must consist of alphanumeric characters, '-', '_' or '.'";
const ENV_NAME_FMT = '[-._a-zA-Z][-._a-zA-Z0-9]*';
const ENV_NAME_ERR = "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit";
const RELAXED_ENV_NAME_ERR = "a valid environment variable name must consist only of printable ASCII characters other than '='";
const HTTP_HEADER_FMT = '[-A-Za-z0-9]+';
const HTTP_HEADER_ERR = "a valid HTTP header must consist of alphanumeric characters or '-'";
const PERCENT_FMT = '[0-9]+%';
const PERCENT_ERR = "a valid percent string must be a numeric string followed by an ending '%'";

export function isDNS1123Label(v: string): string[] {
  const errs: string[] = [];
  if (v.length > 63) errs.push(maxLenError(63));
  if (!DNS1123_LABEL_RE.test(v)) errs.push(regexError(DNS1123_LABEL_ERR, DNS1123_LABEL_FMT, 'my-name', '123-abc'));
  return errs;
}

export function isDNS1123Subdomain(v: string): string[] {
  const errs: string[] = [];
  if (utf8Length(v) > 253) errs.push(maxLenError(253));
  if (!DNS1123_SUBDOMAIN_RE.test(v)) errs.push(regexError(DNS1123_SUBDOMAIN_ERR, DNS1123_SUBDOMAIN_FMT, 'example.com'));
  return errs;
}

export function isDNS1035Label(v: string): string[] {
  const errs: string[] = [];
  if (v.length > 63) errs.push(maxLenError(63));
  if (!DNS1035_LABEL_RE.test(v)) errs.push(regexError(DNS1035_LABEL_ERR, DNS1035_LABEL_FMT, 'my-name', 'abc-123'));
  return errs;
}

export function isWildcardDNS1123Subdomain(v: string): string[] {
  const errs: string[] = [];
  if (v.length > 253) errs.push(maxLenError(253));
  if (!new RegExp(`^${WILDCARD_FMT}$`).test(v)) errs.push(regexError(WILDCARD_ERR, WILDCARD_FMT, '*.example.com'));
  return errs;
}

/** validation.IsQualifiedName: `[prefix/]name`, the form of every label key. */
export function isQualifiedName(value: string): string[] {
  // Every object repeats the same few label and annotation keys: those seen valid skip the split and the regexes.
  if (VALID_QUALIFIED_NAMES.has(value)) return [];
  const errs = qualifiedNameErrors(value);
  if (errs.length === 0) {
    if (VALID_QUALIFIED_NAMES.size >= 4096) VALID_QUALIFIED_NAMES.clear();
    VALID_QUALIFIED_NAMES.add(value);
  }
  return errs;
}

const VALID_QUALIFIED_NAMES = new Set<string>();

function qualifiedNameErrors(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) {
    name = parts[0]!;
  } else if (parts.length === 2) {
    const prefix = parts[0]!;
    name = parts[1]!;
    if (prefix.length === 0) errs.push(`prefix part ${emptyError()}`);
    else for (const m of isDNS1123Subdomain(prefix)) errs.push(`prefix part ${m}`);
  } else {
    return [
      `a qualified name ${regexError(QUALIFIED_NAME_ERR, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  }
  if (name.length === 0) errs.push(`name part ${emptyError()}`);
  else if (utf8Length(name) > QUALIFIED_NAME_MAX) errs.push(`name part ${maxLenError(QUALIFIED_NAME_MAX)}`);
  if (!QUALIFIED_NAME_RE.test(name)) errs.push(`name part ${regexError(QUALIFIED_NAME_ERR, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')}`);
  return errs;
}

export function isValidLabelValue(v: string): string[] {
  const errs: string[] = [];
  if (utf8Length(v) > 63) errs.push(maxLenError(63));
  if (!LABEL_VALUE_RE.test(v)) errs.push(regexError(LABEL_VALUE_ERR, LABEL_VALUE_FMT, 'MyValue', 'my_value', '12345'));
  return errs;
}

export function isCIdentifier(v: string): string[] {
  return new RegExp(`^${C_IDENT_FMT}$`).test(v) ? [] : [regexError(C_IDENT_ERR, C_IDENT_FMT, 'my_name', 'MY_NAME', 'MyName')];
}

export function isValidPortNum(p: number): string[] {
  return p >= 1 && p <= 65535 ? [] : [inclusiveRangeError(1, 65535)];
}

export function isInRange(v: number, lo: number, hi: number): string[] {
  return v >= lo && v <= hi ? [] : [inclusiveRangeError(lo, hi)];
}

export function isValidPortName(port: string): string[] {
  const errs: string[] = [];
  if (port.length > 15) errs.push(maxLenError(15));
  if (!/^[-a-z0-9]+$/.test(port)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(port)) errs.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errs.push('must not contain consecutive hyphens');
  if (port.length > 0 && (port.startsWith('-') || port.endsWith('-'))) errs.push('must not begin or end with a hyphen');
  return errs;
}

export function isValidPercent(v: string): string[] {
  return new RegExp(`^${PERCENT_FMT}$`).test(v) ? [] : [regexError(PERCENT_ERR, PERCENT_FMT, '1%', '93%')];
}

export function isHTTPHeaderName(v: string): string[] {
  return new RegExp(`^${HTTP_HEADER_FMT}$`).test(v) ? [] : [regexError(HTTP_HEADER_ERR, HTTP_HEADER_FMT, 'X-Header-Name')];
}

function hasChDirPrefix(v: string): string[] {
  if (v === '.') return ["must not be '.'"];
  if (v === '..') return ["must not be '..'"];
  if (v.startsWith('..')) return ["must not start with '..'"];
  return [];
}

export function isConfigMapKey(v: string): string[] {
  const errs: string[] = [];
  if (v.length > 253) errs.push(maxLenError(253));
  if (!new RegExp(`^${CONFIG_KEY_FMT}$`).test(v)) errs.push(regexError(CONFIG_KEY_ERR, CONFIG_KEY_FMT, 'key.name', 'KEY_NAME', 'key-name'));
  return errs.concat(hasChDirPrefix(v));
}

export function isEnvVarName(v: string): string[] {
  const errs: string[] = [];
  if (!new RegExp(`^${ENV_NAME_FMT}$`).test(v)) errs.push(regexError(ENV_NAME_ERR, ENV_NAME_FMT, 'my.env-name', 'MY_ENV.NAME', 'MyEnvName1'));
  return errs.concat(hasChDirPrefix(v));
}

/** RelaxedEnvironmentVariableValidation is beta and on in v1.32. */
export function isRelaxedEnvVarName(v: string): string[] {
  const errs: string[] = [];
  if (v.length === 0) errs.push(`environment variable name ${emptyError()}`);
  for (const ch of v) {
    const c = ch.codePointAt(0)!;
    if (c > 127 || c < 32 || c === 127 || ch === '=') {
      errs.push(RELAXED_ENV_NAME_ERR);
      break;
    }
  }
  return errs;
}

const IPV4_RE = /^(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])(\.(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])){3}$/;

export function isIPv4(s: string): boolean {
  return IPV4_RE.test(s);
}

export function isIPv6(s: string): boolean {
  if (!s.includes(':') || s.includes(':::')) return false;
  let body = s;
  let groupsFromV4 = 0;
  const lastColon = s.lastIndexOf(':');
  const tail = s.slice(lastColon + 1);
  if (tail.includes('.')) {
    if (!isIPv4(tail)) return false;
    body = s.slice(0, lastColon + 1) + '0';
    groupsFromV4 = 1;
  }
  const dbl = body.split('::');
  if (dbl.length > 2) return false;
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const all = dbl.flatMap(groups);
  if (!all.every((g) => /^[0-9a-fA-F]{1,4}$/.test(g))) return false;
  const count = all.length + groupsFromV4;
  return dbl.length === 2 ? count <= 8 : count === 8;
}

export function isIP(s: string): boolean {
  return isIPv4(s) || isIPv6(s);
}

/** IsValidIP(fldPath, value) detail. */
export const IP_ERROR = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';
export const CIDR_ERROR = 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)';

export function isCIDR(s: string): boolean {
  const i = s.indexOf('/');
  if (i < 0) return false;
  const ip = s.slice(0, i);
  const bits = s.slice(i + 1);
  if (!/^[0-9]{1,3}$/.test(bits)) return false;
  const n = Number(bits);
  if (isIPv4(ip)) return n <= 32;
  if (isIPv6(ip)) return n <= 128;
  return false;
}
