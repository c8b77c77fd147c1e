// kubectl v1.32 for the simulation: same commands, flags, output and errors,
// speaking REST to the simulated kube-apiserver through a host transport.
import { complete, splitCommandLine } from './cli/complete';
import { dispatch } from './cli/root';
import { buildRoot } from './cmd/registry';
import type { KubectlEnv, KubectlResult } from './types';

export type { KubectlEnv, KubectlResult, KubectlTransport, EditRequest } from './types';
export { splitCommandLine };

/** Runs one kubectl command line (arguments after `kubectl`; a leading "kubectl" is dropped). */
export function runKubectl(args: string[], env: KubectlEnv): Promise<KubectlResult> {
  return dispatch(args, env, buildRoot());
}

/**
 * Tab completion for the last word of a typed line (`kubectl get po`): the
 * full candidate words, sorted. Resource types and object names come from the API.
 */
export function completeKubectl(line: string, env: KubectlEnv): Promise<string[]> {
  return complete(line, env, buildRoot());
}
