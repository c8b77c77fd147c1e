// `-o` formats and the non-table printers (cli-runtime printers: json.go,
// yaml.go, name.go, jsonpath.go; kubectl get/customcolumn.go), wired as
// genericclioptions.PrintFlags resolves them.
import { errs, fail } from '../client/errors';
import { JsonPath, JsonPathError, relaxedJsonPathExpression } from '../jsonpath/jsonpath';
import { toYaml } from '../yaml/emit';
import { executeGoTemplate, TemplateError } from './goTemplate';
import { goFmtV, goJsonIndent, goJsonIndentOrdered, goSharpV } from './goJson';
import { asTypedStruct } from './typed';
import { KUBECTL_TABWRITER, TabWriter } from './tabWriter';

export type OutputFormat =
  | { type: 'table'; wide: boolean }
  | { type: 'json' }
  | { type: 'yaml' }
  | { type: 'name' }
  | { type: 'jsonpath'; template: string; asJson: boolean }
  | { type: 'custom-columns'; spec: string }
  | { type: 'go-template'; template: string };

const ALLOWED = 'custom-columns,custom-columns-file,go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,name,template,templatefile,wide,yaml';

/** PrintFlags.ToPrinter's choice; `allowed` narrows the list for commands without tables. */
export function parseOutputFormat(o: string, files: Record<string, string>, opts: { template?: string; allowed?: string } = {}): OutputFormat {
  if (o === '' || o === 'wide') return { type: 'table', wide: o === 'wide' };
  const eq = o.indexOf('=');
  const name = eq < 0 ? o : o.slice(0, eq);
  const arg = eq < 0 ? (opts.template ?? '') : o.slice(eq + 1);
  // CustomColumnsPrintFlags words it without the dashes.
  const readFile = (f: string, what = '--template') => {
    const t = files[f];
    if (t === undefined) fail(errs.plain(`error reading ${what} ${f}, open ${f}: no such file or directory`));
    return t;
  };
  switch (name) {
    case 'json':
      return { type: 'json' };
    case 'yaml':
      return { type: 'yaml' };
    case 'name':
      return { type: 'name' };
    case 'jsonpath':
    case 'jsonpath-as-json':
      if (!arg) fail(errs.plain('template format specified but no template given'));
      return { type: 'jsonpath', template: arg, asJson: name === 'jsonpath-as-json' };
    case 'jsonpath-file':
      return { type: 'jsonpath', template: readFile(arg), asJson: false };
    case 'custom-columns':
      return { type: 'custom-columns', spec: arg };
    case 'custom-columns-file':
      return { type: 'custom-columns', spec: readFile(arg, 'template') };
    case 'go-template':
    case 'template':
      if (!arg) fail(errs.plain('template format specified but no template given'));
      return { type: 'go-template', template: arg };
    case 'go-template-file':
    case 'templatefile':
      return { type: 'go-template', template: readFile(arg) };
  }
  return fail(errs.plain(`unable to match a printer suitable for the output format "${o}", allowed formats are: ${opts.allowed ?? ALLOWED}`));
}

type Obj = Record<string, any>;

export function stripManagedFields(o: unknown): unknown {
  if (typeof o !== 'object' || o === null || Array.isArray(o)) return o;
  const obj = o as Obj;
  if (Array.isArray(obj.items)) return { ...obj, items: obj.items.map(stripManagedFields) };
  if (obj.metadata && typeof obj.metadata === 'object' && 'managedFields' in obj.metadata) {
    const { managedFields: _m, ...meta } = obj.metadata as Obj;
    return { ...obj, metadata: meta };
  }
  return obj;
}

/** name.go printObj: `deployment.apps/web`, with an operation (`created`) when given. */
export function nameLine(obj: Obj, operation = ''): string {
  const apiVersion = String(obj.apiVersion ?? '');
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
  const kind = String(obj.kind ?? '').toLowerCase();
  const name = obj.metadata?.name ? String(obj.metadata.name) : '<unknown>';
  const op = operation ? ` ${operation}` : '';
  return group ? `${kind}.${group}/${name}${op}\n` : `${kind}/${name}${op}\n`;
}

function isList(o: Obj): boolean {
  return Array.isArray(o.items);
}

/** A printer for one command run (YAML separates successive documents with ---). */
export class GenericPrinter {
  private count = 0;
  private lastHeader = false;
  private readonly tw = new TabWriter(KUBECTL_TABWRITER);

  constructor(
    private readonly format: Exclude<OutputFormat, { type: 'table' }>,
    private readonly opts: { noHeaders?: boolean; showManagedFields?: boolean; allowMissingKeys?: boolean } = {},
  ) {}

  /**
   * Text for one object (or List); throws KubectlFailure on template errors.
   * `typed`: the object is a Go struct in kubectl (a generator's), so JSON has its field order.
   */
  print(objIn: Obj, typed = false): string {
    const obj = (this.opts.showManagedFields ? objIn : stripManagedFields(objIn)) as Obj;
    switch (this.format.type) {
      case 'json':
        return (typed ? goJsonIndentOrdered(asTypedStruct(obj), '    ') : goJsonIndent(obj)) + '\n';
      case 'yaml': {
        const sep = this.count++ > 0 ? '---\n' : '';
        return sep + toYaml(obj);
      }
      case 'name':
        return isList(obj) ? (obj.items as Obj[]).map((i) => nameLine(i)).join('') : nameLine(obj);
      case 'jsonpath':
        return this.jsonpath(obj, this.format.template, this.format.asJson);
      case 'custom-columns':
        return this.customColumns(obj, this.format.spec);
      case 'go-template':
        try {
          return executeGoTemplate(this.format.template, obj);
        } catch (e) {
          if (e instanceof TemplateError) return fail(errs.plain(`error executing template ${JSON.stringify(this.format.template)}: template: output:1: ${e.message}`));
          throw e;
        }
    }
  }

  private jsonpath(obj: Obj, template: string, asJson: boolean): string {
    const jp = new JsonPath();
    jp.allowMissingKeys = this.opts.allowMissingKeys ?? true;
    jp.outputJson = asJson;
    try {
      jp.parse(template);
    } catch (e) {
      if (e instanceof JsonPathError) fail(errs.plain(`error parsing jsonpath ${template}, ${e.message}`));
      throw e;
    }
    try {
      return jp.execute(obj);
    } catch (e) {
      if (e instanceof JsonPathError) {
        fail(errs.plain(`error executing jsonpath ${JSON.stringify(template)}: Error executing template: ${e.message}. Printing more information for debugging the template:\n\ttemplate was:\n\t\t${template}\n\tobject given to jsonpath engine was:\n\t\t${goSharpV(obj)}\n\n\n`));
      }
      throw e;
    }
  }

  private customColumns(obj: Obj, spec: string): string {
    if (spec.length === 0) fail(errs.plain('custom-columns format specified but no custom columns given'));
    const cols = spec.split(',').map((part) => {
      const i = part.indexOf(':');
      if (i < 0) fail(errs.plain(`unexpected custom-columns spec: ${part}, expected <header>:<json-path-expr>`));
      let path: string;
      try {
        path = relaxedJsonPathExpression(part.slice(i + 1));
      } catch (e) {
        return fail(errs.plain((e as Error).message));
      }
      return { header: part.slice(0, i), path };
    });
    if (!this.opts.noHeaders && !this.lastHeader) {
      this.tw.write(cols.map((c) => c.header).join('\t') + '\n');
      this.lastHeader = true;
    }
    const parsers = cols.map((c) => {
      const jp = new JsonPath();
      jp.allowMissingKeys = true;
      try {
        jp.parse(c.path);
      } catch (e) {
        fail(errs.plain((e as Error).message));
      }
      return jp;
    });
    const one = (o: Obj) => {
      const cells = parsers.map((jp) => {
        let values: unknown[][];
        try {
          values = jp.findResults(o);
        } catch (e) {
          return fail(errs.plain((e as Error).message));
        }
        const strs: string[] = [];
        if (values.length === 0 || values[0]!.length === 0) strs.push('<none>');
        for (const vs of values) for (const v of vs) strs.push(goFmtV(v).replace(/\x1b/g, '^[').replace(/\r/g, '\\r'));
        return strs.join(',');
      });
      this.tw.write(cells.join('\t') + '\n');
    };
    if (isList(obj)) for (const i of obj.items as Obj[]) one(i);
    else one(obj);
    this.tw.flush();
    return this.tw.take();
  }
}
