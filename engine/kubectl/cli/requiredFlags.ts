// cobra's MarkFlagRequired: before the command runs, ValidateRequiredFlags
// lists every required flag not given (in pflag's sorted order); kubectl's
// main prints that as any error (cli.RunNoErrOutput, then CheckErr). The
// check comes before the command's own, so it wins over a missing NAME.
// (The Google Cloud SDK's kubectl "dispatcher" build logs it through klog
// instead; upstream kubectl does not.)
import { errs, fail } from '../client/errors';
import type { ParsedFlags } from './flags';

/** Fails as cobra does when any of `required` was not given on the command line. */
export function checkRequiredFlags(flags: ParsedFlags, required: string[]): void {
  const missing = [...required].sort().filter((n) => !flags.changed.has(n));
  if (missing.length > 0) fail(errs.plain(`required flag(s) "${missing.join('", "')}" not set`));
}
