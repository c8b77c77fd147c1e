// kubectl's failures and how cmdutil.CheckErr prints them
// (staging/src/k8s.io/kubectl/pkg/cmd/util/helpers.go: checkErr,
// StandardErrorMessage, MultilineError, MultipleErrors).
import type { Status } from '../../apimachinery/types';

export type KubectlErr =
  /** An API Status from the server (apierrors.StatusError). */
  | { type: 'StatusError'; status: Status }
  /** meta.NoResourceMatchError */
  | { type: 'NoResourceMatch'; resource: string; group: string; version: string }
  /** cmdutil.UsageErrorf: message + "See 'kubectl x -h' for help and examples". */
  | { type: 'UsageError'; message: string; commandPath: string }
  /** Any other error: printed as `error: <message>` unless it already starts so. */
  | { type: 'Error'; message: string }
  /** Printed verbatim (no `error: ` prefix). */
  | { type: 'Raw'; message: string; exitCode?: number }
  /** utilerrors.Aggregate: one line per error. */
  | { type: 'Aggregate'; errors: KubectlErr[] }
  /** cmdutil.ErrExit: exit 1 printing nothing. */
  | { type: 'Exit'; code: number };

export class KubectlFailure extends Error {
  constructor(readonly err: KubectlErr) {
    super(errorString(err));
  }
}

export const errs = {
  status: (status: Status): KubectlErr => ({ type: 'StatusError', status }),
  plain: (message: string): KubectlErr => ({ type: 'Error', message }),
  usage: (message: string, commandPath: string): KubectlErr => ({ type: 'UsageError', message, commandPath }),
  raw: (message: string, exitCode?: number): KubectlErr => ({ type: 'Raw', message, ...(exitCode === undefined ? {} : { exitCode }) }),
};

export function fail(e: KubectlErr): never {
  throw new KubectlFailure(e);
}

/** err.Error(). */
export function errorString(e: KubectlErr): string {
  switch (e.type) {
    case 'StatusError':
      return e.status.message ?? '';
    case 'NoResourceMatch':
      return `no matches for ${e.group ? `${e.resource}.${e.group}` : e.resource}`;
    case 'UsageError':
      return `${e.message}\nSee '${e.commandPath} -h' for help and examples`;
    case 'Error':
    case 'Raw':
      return e.message;
    case 'Aggregate':
      return e.errors.length === 1 ? errorString(e.errors[0]!) : `[${e.errors.map(errorString).join(', ')}]`;
    case 'Exit':
      return '';
  }
}

/** StandardErrorMessage: the server's words with its reason. */
export function standardErrorMessage(e: KubectlErr): string | undefined {
  if (e.type !== 'StatusError') return undefined;
  const s = e.status;
  if (s.reason === 'Unauthorized') return `error: You must be logged in to the server (${s.message ?? ''})`;
  if (s.reason) return `Error from server (${s.reason}): ${s.message ?? ''}`;
  return `Error from server: ${s.message ?? ''}`;
}

function messageForError(e: KubectlErr): string {
  return standardErrorMessage(e) ?? errorString(e);
}

function flatten(e: KubectlErr): KubectlErr[] {
  return e.type === 'Aggregate' ? e.errors.flatMap(flatten) : [e];
}

/** checkErr's text for an error (with trailing newline) and exit code. */
export function formatError(e: KubectlErr): { text: string; exitCode: number } {
  const withNl = (m: string) => (m === '' || m.endsWith('\n') ? m : `${m}\n`);
  if (e.type === 'Exit') return { text: '', exitCode: e.code };
  if (e.type === 'Raw') return { text: withNl(e.message), exitCode: e.exitCode ?? 1 };
  if (e.type === 'StatusError' && e.status.reason === 'Invalid') {
    const d = e.status.details;
    let s = 'The request is invalid';
    if (!d) return { text: withNl(s), exitCode: 1 };
    if ((d.kind ?? '') !== '' || (d.name ?? '') !== '') s = `The ${d.kind ?? ''} "${d.name ?? ''}" is invalid`;
    const causes = d.causes ?? [];
    if (causes.length === 0) return { text: withNl(s), exitCode: 1 };
    const lines = causes.map((c) => `${c.field ?? ''}: ${c.message ?? ''}`);
    if (lines.length === 1) return { text: `${s}: ${lines[0]}\n`, exitCode: 1 };
    return { text: `${s}: \n${lines.map((l) => `* ${l}\n`).join('')}`, exitCode: 1 };
  }
  if (e.type === 'NoResourceMatch') {
    let m: string;
    if (e.group && e.version) m = `the server doesn't have a resource type "${e.resource}" in group "${e.group}" and version "${e.version}"`;
    else if (e.group) m = `the server doesn't have a resource type "${e.resource}" in group "${e.group}"`;
    else if (e.version) m = `the server doesn't have a resource type "${e.resource}" in version "${e.version}"`;
    else m = `the server doesn't have a resource type "${e.resource}"`;
    return { text: `error: ${m}\n`, exitCode: 1 };
  }
  if (e.type === 'Aggregate') {
    const all = flatten(e);
    if (all.length === 1) return formatError(all[0]!);
    return { text: all.map((x) => `${messageForError(x)}\n`).join(''), exitCode: 1 };
  }
  const std = standardErrorMessage(e);
  if (std !== undefined) return { text: withNl(std), exitCode: 1 };
  const msg = errorString(e);
  return { text: withNl(msg.startsWith('error: ') ? msg : `error: ${msg}`), exitCode: 1 };
}
