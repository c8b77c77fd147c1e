// What every command runs with: output streams, the REST client, discovery,
// and the resolved namespace (cmdutil.Factory's role in kubectl).
import type { KubectlEnv } from '../types';
import { Discovery } from '../client/discovery';
import { RestClient } from '../client/rest';
import type { ParsedFlags } from './flags';
import { getString, getStrings } from './flags';

export class Output {
  stdout = '';
  stderr = '';
  constructor(private readonly env: KubectlEnv) {}
  out(text: string): void {
    if (!text) return;
    this.stdout += text;
    this.env.onOutput?.('stdout', text);
  }
  err(text: string): void {
    if (!text) return;
    this.stderr += text;
    this.env.onOutput?.('stderr', text);
  }
}

export interface Ctx {
  env: KubectlEnv;
  io: Output;
  flags: ParsedFlags;
  /** `kubectl get`, for usage errors. */
  commandPath: string;
  client: RestClient;
  discovery: Discovery;
  /** -n or the context's namespace. */
  namespace: string;
  /** -n was given. */
  explicitNamespace: boolean;
  now(): number;
}

export function makeCtx(env: KubectlEnv, io: Output, flags: ParsedFlags, commandPath: string): Ctx {
  const ns = getString(flags, 'namespace');
  const as = getString(flags, 'as');
  const groups = getStrings(flags, 'as-group');
  // Server warnings go to stderr as `Warning: <text>` (rest.NewWarningWriter in kubectl's factory).
  const client = new RestClient(env, { ...(as ? { user: as } : {}), ...(groups.length ? { groups } : {}) }, commandPath, (w) => io.err(`Warning: ${w}\n`));
  return {
    env,
    io,
    flags,
    commandPath,
    client,
    discovery: new Discovery(client, (msg) => io.err(`Warning: ${msg}\n`)),
    namespace: ns || env.namespace || 'default',
    explicitNamespace: flags.changed.has('namespace'),
    now: () => env.now(),
  };
}
