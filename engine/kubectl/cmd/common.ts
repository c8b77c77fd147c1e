// Pieces the mutating commands share: --dry-run, the printer that says
// `deployment.apps/web created`, AddSourceToErr, and --validate.
import type { Ctx } from '../cli/context';
import type { FlagDef } from '../cli/flags';
import { getBool, getString } from '../cli/flags';
import { errs, fail, type KubectlErr } from '../client/errors';
import { GenericPrinter, nameLine, parseOutputFormat } from '../printers/output';

type Obj = Record<string, any>;

export type DryRun = 'none' | 'client' | 'server';

export const DRY_RUN_FLAG: FlagDef = { name: 'dry-run', kind: 'string', default: 'none', noOptDefVal: 'unchanged' };
export const VALIDATE_FLAG: FlagDef = { name: 'validate', kind: 'string', default: 'strict', noOptDefVal: 'strict' };
export const OUTPUT_FLAGS: FlagDef[] = [
  { name: 'output', shorthand: 'o', kind: 'string' },
  { name: 'template', kind: 'string' },
  { name: 'allow-missing-template-keys', kind: 'bool', default: true },
  { name: 'show-managed-fields', kind: 'bool' },
];
export const FILENAME_FLAGS: FlagDef[] = [
  { name: 'filename', shorthand: 'f', kind: 'stringSlice' },
  { name: 'recursive', shorthand: 'R', kind: 'bool' },
  { name: 'kustomize', shorthand: 'k', kind: 'string' },
];

/** cmdutil.GetDryRunStrategy. */
export function dryRunStrategy(ctx: Ctx): DryRun {
  const v = getString(ctx.flags, 'dry-run');
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v)) return 'client';
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(v)) return 'none';
  switch (v) {
    case 'unchanged':
    case 'client':
      return 'client';
    case 'server':
      return 'server';
    case 'none':
    case '':
      return 'none';
  }
  return fail(errs.plain(`Invalid dry-run value (${v}). Must be "none", "server", or "client".`));
}

/** cmdutil.GetValidationDirective → the fieldValidation query value. */
export function validationDirective(ctx: Ctx): string {
  const v = getString(ctx.flags, 'validate').toLowerCase();
  switch (v) {
    case 'strict':
    case 'true':
      return 'Strict';
    case 'warn':
      return 'Warn';
    case 'ignore':
    case 'false':
      return 'Ignore';
  }
  return fail(errs.plain(`invalid - validate option "${getString(ctx.flags, 'validate')}"; must be one of: strict (or true), warn, ignore (or false)`));
}

export function dryRunQuery(d: DryRun): Record<string, string> {
  return d === 'server' ? { dryRun: 'All' } : {};
}

/** The operation suffix PrintFlags.Complete adds for dry runs. */
export function withDryRun(op: string, d: DryRun): string {
  return d === 'client' ? `${op} (dry run)` : d === 'server' ? `${op} (server dry run)` : op;
}

/** A printer for mutation results: `-o` formats, else `kind.group/name op`. */
export class ResultPrinter {
  private readonly generic: GenericPrinter | null;
  private readonly nameOnly: boolean;

  constructor(
    private readonly ctx: Ctx,
    private readonly dryRun: DryRun,
  ) {
    const o = getString(ctx.flags, 'output');
    const fmt = parseOutputFormat(o, ctx.env.files, { template: getString(ctx.flags, 'template'), allowed: 'go-template, go-template-file, json, jsonpath, jsonpath-as-json, jsonpath-file, name, template, templatefile, yaml' });
    this.nameOnly = fmt.type === 'name';
    this.generic = fmt.type === 'table' || fmt.type === 'name' ? null : new GenericPrinter(fmt, { showManagedFields: getBool(ctx.flags, 'show-managed-fields') });
  }

  /** Whether objects are printed in full (no `created` lines). */
  get printsObjects(): boolean {
    return this.generic !== null;
  }

  /** `typed`: a Go struct in kubectl (see GenericPrinter.print). */
  print(obj: Obj, operation: string, typed = false): void {
    if (this.generic) this.ctx.io.out(this.generic.print(obj, typed));
    else if (this.nameOnly) this.ctx.io.out(nameLine(obj));
    else this.ctx.io.out(nameLine(obj, withDryRun(operation, this.dryRun)));
  }
}

/** cmdutil.AddSourceToErr: `error when creating "file.yaml": ...`. */
export function addSourceToErr(verb: string, source: string | undefined, e: KubectlErr): KubectlErr {
  if (!source) return e;
  if (e.type === 'StatusError') return { type: 'StatusError', status: { ...e.status, message: `error when ${verb} ${JSON.stringify(source)}: ${e.status.message ?? ''}` } };
  if (e.type === 'Error') return { type: 'Error', message: `error when ${verb} ${JSON.stringify(source)}: ${e.message}` };
  return e;
}

export function apiVersionOfMapping(m: { group: string; version: string }): string {
  return m.group ? `${m.group}/${m.version}` : m.version;
}
