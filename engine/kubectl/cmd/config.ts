// kubectl config, for the one context the simulation has (the kubeconfig is
// implied by the host: its server URL, namespace and user).
import type { Ctx } from '../cli/context';
import type { CommandSpec } from '../cli/root';
import { getBool, getString } from '../cli/flags';
import { errs, fail } from '../client/errors';
import { toYaml } from '../yaml/emit';
import { KUBECTL_TABWRITER, TabWriter } from '../printers/tabWriter';

const CONTEXT = 'kubeglass';

function kubeconfig(ctx: Ctx): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    clusters: [{ cluster: { 'certificate-authority-data': 'DATA+OMITTED', server: ctx.env.server ?? 'https://127.0.0.1:6443' }, name: CONTEXT }],
    contexts: [{ context: { cluster: CONTEXT, namespace: ctx.env.namespace ?? 'default', user: ctx.env.user ?? 'kubernetes-admin' }, name: CONTEXT }],
    'current-context': CONTEXT,
    kind: 'Config',
    preferences: {},
    users: [{ name: ctx.env.user ?? 'kubernetes-admin', user: { 'client-certificate-data': 'DATA+OMITTED', 'client-key-data': 'DATA+OMITTED' } }],
  };
}

export function configSubcommands(): CommandSpec[] {
  return [
    { name: 'current-context', short: 'Display the current-context', use: '[options]', run: async (ctx) => ctx.io.out(`${CONTEXT}\n`) },
    {
      name: 'view',
      short: 'Display merged kubeconfig settings or a specified kubeconfig file',
      use: '[flags] [options]',
      flags: [{ name: 'minify', kind: 'bool' }, { name: 'raw', kind: 'bool' }, { name: 'flatten', kind: 'bool' }, { name: 'output', shorthand: 'o', kind: 'string', default: 'yaml' }],
      run: async (ctx) => ctx.io.out(toYaml(kubeconfig(ctx))),
    },
    {
      name: 'get-contexts',
      short: 'Describe one or many contexts',
      use: '[(-o|--output=)name)] [options]',
      flags: [{ name: 'output', shorthand: 'o', kind: 'string' }, { name: 'no-headers', kind: 'bool' }],
      run: async (ctx) => {
        if (getString(ctx.flags, 'output') === 'name') return ctx.io.out(`${CONTEXT}\n`);
        const tw = new TabWriter(KUBECTL_TABWRITER, (t) => ctx.io.out(t));
        if (!getBool(ctx.flags, 'no-headers')) tw.write('CURRENT\tNAME\tCLUSTER\tAUTHINFO\tNAMESPACE\n');
        tw.write(`*\t${CONTEXT}\t${CONTEXT}\t${ctx.env.user ?? 'kubernetes-admin'}\t${ctx.env.namespace ?? 'default'}\n`);
        tw.flush();
      },
    },
    {
      name: 'set-context',
      short: 'Set a context entry in kubeconfig',
      use: '[NAME | --current] [--cluster=cluster_nickname] [--user=user_nickname] [--namespace=namespace] [options]',
      flags: [{ name: 'current', kind: 'bool' }],
      run: async (ctx, args) => {
        const name = getBool(ctx.flags, 'current') ? CONTEXT : args[0];
        if (name !== CONTEXT) fail(errs.plain(`this simulation has a single context, "${CONTEXT}"`));
        if (!ctx.flags.changed.has('namespace')) {
          ctx.io.out(`Context "${CONTEXT}" modified.\n`);
          return;
        }
        ctx.io.out(`Context "${CONTEXT}" modified.\n`);
        return { context: { namespace: getString(ctx.flags, 'namespace') } };
      },
    },
  ];
}
