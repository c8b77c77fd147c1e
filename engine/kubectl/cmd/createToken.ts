// kubectl create token (staging/src/k8s.io/kubectl/pkg/cmd/create/create_token.go):
// a TokenRequest for a service account, optionally bound to a Pod, Secret or
// Node; prints the token (with a newline only on a terminal) or, with -o, the
// TokenRequest the server answered.
import type { Ctx } from '../cli/context';
import type { CommandSpec } from '../cli/root';
import { getString, getStrings, parseGoDuration } from '../cli/flags';
import { errorString, errs, fail } from '../client/errors';
import { goJsonCompact, goJsonIndentOrdered } from '../printers/goJson';
import { OUTPUT_FLAGS, ResultPrinter } from './common';

/** boundObjectKindToAPIVersions (Node with ServiceAccountTokenNodeBinding, beta in v1.32). */
const BOUND_KINDS: Record<string, string> = { Node: 'v1', Pod: 'v1', Secret: 'v1' };

async function runCreateToken(ctx: Ctx, args: string[]): Promise<void> {
  const f = ctx.flags;
  // NameFromCommandArgs: a usage error either way.
  if (args.length !== 1) fail(errs.usage(`exactly one NAME is required, got ${args.length}`, ctx.commandPath));
  const name = args[0]!;
  const durationMs = parseGoDuration(getString(f, 'duration') || '0s') ?? 0;
  if (durationMs < 0) fail(errs.plain('--duration must be greater than or equal to 0'));
  if (durationMs % 1000 !== 0) fail(errs.plain('--duration cannot be expressed in units less than seconds'));
  const audiences = getStrings(f, 'audience');
  if (audiences.some((a) => a === '')) fail(errs.plain('--audience must not be an empty string'));
  const kind = getString(f, 'bound-object-kind');
  const boundName = getString(f, 'bound-object-name');
  const boundUid = getString(f, 'bound-object-uid');
  if (!kind) {
    if (boundName) fail(errs.plain('--bound-object-name can only be set if --bound-object-kind is provided'));
    if (boundUid) fail(errs.plain('--bound-object-uid can only be set if --bound-object-kind is provided'));
  } else {
    if (!BOUND_KINDS[kind]) fail(errs.plain(`supported --bound-object-kind values are ${Object.keys(BOUND_KINDS).sort().join(', ')}`));
    if (!boundName) fail(errs.plain('--bound-object-name is required if --bound-object-kind is provided'));
  }
  const spec: Record<string, unknown> = { audiences: audiences.length ? audiences : null };
  if (durationMs > 0) spec.expirationSeconds = durationMs / 1000;
  if (kind) spec.boundObjectRef = { kind, apiVersion: BOUND_KINDS[kind], name: boundName, ...(boundUid ? { uid: boundUid } : {}) };
  const body = { kind: 'TokenRequest', apiVersion: 'authentication.k8s.io/v1', metadata: { creationTimestamp: null }, spec, status: { token: '', expirationTimestamp: null } };
  const r = await ctx.client.tryJson<Record<string, any>>('POST', `/api/v1/namespaces/${ctx.namespace}/serviceaccounts/${name}/token`, { body: `${goJsonCompact(body)}\n` });
  if (!r.ok) fail(errs.plain(`failed to create token: ${errorString(errs.status(r.status))}`));
  const token = r.value.status?.token;
  if (!token) fail(errs.plain('failed to create token: no token in server response'));
  const output = getString(f, 'output');
  // The typed TokenRequest is printed: JSON in its struct's order (the server's), not a map's sorted keys.
  if (output === 'json') return ctx.io.out(`${goJsonIndentOrdered(r.value, '    ')}\n`);
  if (output) return new ResultPrinter(ctx, 'none').print(r.value, 'created');
  ctx.io.out(ctx.env.tty ? `${token}\n` : token);
}

export const CREATE_TOKEN: CommandSpec = {
  name: 'token',
  short: 'Request a service account token',
  use: 'SERVICE_ACCOUNT_NAME [options]',
  flags: [...OUTPUT_FLAGS, { name: 'audience', kind: 'stringArray' }, { name: 'duration', kind: 'duration', default: '0s' }, { name: 'bound-object-kind', kind: 'string' }, { name: 'bound-object-name', kind: 'string' }, { name: 'bound-object-uid', kind: 'string' }],
  run: runCreateToken,
};
