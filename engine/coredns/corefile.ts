// The Corefile as CoreDNS reads it at start (caddyfile syntax: server blocks
// `ZONE:PORT { … }`, one directive a line, a directive's own block in braces)
// and what the playground makes of it: the kubernetes plugin's options
// (plugin/kubernetes/setup.go: zones, pods, ttl, fallthrough), whether
// `log`, `loadbalance` and `forward` are on. A directive CoreDNS does not
// have stops it at start, as coremain does, with caddy's message.
import type { KubernetesPluginConfig } from '../dns/kubernetes';

/** What the server does with a query, from its Corefile. */
export interface CorednsConfig {
  /** The server block's keys (".:53"), as coremain prints them. */
  keys: string[];
  kubernetes: KubernetesPluginConfig | null;
  log: boolean;
  loadbalance: boolean;
  forward: boolean;
}

/** CoreDNS v1.11's plugins (plugin.cfg): any other directive is unknown. */
const PLUGINS = new Set([
  'root', 'metadata', 'geoip', 'cancel', 'tls', 'timeouts', 'reload', 'nsid', 'bufsize', 'bind', 'debug', 'trace', 'ready', 'health', 'pprof', 'prometheus',
  'errors', 'log', 'dnstap', 'local', 'dns64', 'acl', 'any', 'chaos', 'loadbalance', 'tsig', 'cache', 'rewrite', 'header', 'dnssec', 'autopath', 'minimal',
  'template', 'transfer', 'hosts', 'route53', 'azure', 'clouddns', 'k8s_external', 'kubernetes', 'file', 'auto', 'secondary', 'etcd', 'loop', 'forward',
  'grpc', 'erratic', 'whoami', 'on', 'sign', 'view',
]);

const fqdnOf = (z: string) => (z === '.' ? '.' : `${z.toLowerCase().replace(/\.$/, '')}.`);

interface Line {
  n: number;
  words: string[];
}

/** The Corefile's lines as words, comments dropped, braces split off into words of their own. */
function lex(text: string): Line[] {
  return text
    .split('\n')
    .map((l, i) => ({ n: i + 1, words: l.replace(/#.*/, '').replace(/([{}])/g, ' $1 ').trim().split(/\s+/).filter(Boolean) }))
    .filter((l) => l.words.length > 0);
}

/** The Corefile's configuration, or the error CoreDNS exits with (`file` names it as caddy does). */
export function parseCorefile(text: string, file: string): CorednsConfig | { error: string } {
  const lines = lex(text);
  const cfg: CorednsConfig = { keys: [], kubernetes: null, log: false, loadbalance: false, forward: false };
  let depth = 0;
  let block: { directive: string; line: number } | null = null;
  for (const { n, words } of lines) {
    const opens = words[words.length - 1] === '{';
    const closes = words[0] === '}';
    if (closes) {
      depth--;
      if (depth < 0) return { error: `${file}:${n} - Error during parsing: Unexpected '}' because no matching opening brace` };
      if (depth === 1) block = null;
      continue;
    }
    if (depth === 0) {
      if (!opens) return { error: `${file}:${n} - Error during parsing: Unexpected token '${words[0]}', expecting '{'` };
      cfg.keys.push(...words.slice(0, -1).map((k) => (/:\d+$/.test(k) ? k : `${k}:53`)));
      depth = 1;
      continue;
    }
    if (depth === 1) {
      const [directive, ...args] = opens ? words.slice(0, -1) : words;
      if (!PLUGINS.has(directive!)) return { error: `${file}:${n} - Error during parsing: Unknown directive '${directive}'` };
      if (directive === 'log') cfg.log = true;
      if (directive === 'loadbalance') cfg.loadbalance = true;
      if (directive === 'forward') cfg.forward = true;
      if (directive === 'kubernetes') cfg.kubernetes = { zones: args.length ? args.map(fqdnOf) : ['.'], ttl: 5, pods: 'disabled', fallthrough: [] };
      if (opens) {
        block = { directive: directive!, line: n };
        depth = 2;
      }
      continue;
    }
    // Inside a plugin's block: the kubernetes plugin's options (setup.go ParseStanza).
    if (block?.directive === 'kubernetes' && cfg.kubernetes) {
      const [opt, ...vals] = words;
      const k = cfg.kubernetes;
      if (opt === 'pods') {
        if (vals[0] !== 'disabled' && vals[0] !== 'insecure' && vals[0] !== 'verified') return { error: `${file}:${n} - Error during parsing: could not parse pod mode: ${vals[0] ?? ''}` };
        k.pods = vals[0];
      } else if (opt === 'ttl') {
        const t = Number(vals[0]);
        if (!/^\d+$/.test(vals[0] ?? '') || t > 3600) return { error: `${file}:${n} - Error during parsing: ttl must be in range [0, 3600]: ${vals[0] ?? ''}` };
        k.ttl = t;
      } else if (opt === 'fallthrough') k.fallthrough = vals.length ? vals.map(fqdnOf) : ['.'];
    }
    if (opens) depth++;
  }
  if (depth !== 0) return { error: `${file}:${lines[lines.length - 1]?.n ?? 1} - Error during parsing: Unexpected EOF` };
  return cfg;
}
