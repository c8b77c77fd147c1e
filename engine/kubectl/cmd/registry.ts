// kubectl's command tree: names, groups and one-line descriptions as `kubectl --help` lists them.
import type { CommandSpec } from '../cli/root';
import { errs, fail } from '../client/errors';
import { GET_FLAGS, runGet } from './get';
import { DESCRIBE_FLAGS, runDescribe } from './describe';
import { EDIT_FLAGS, runEdit } from './edit';
import { EXPLAIN_FLAGS, runExplain } from './explain';
import { DIFF_FLAGS, runDiff } from './diff';
import { REPLACE_FLAGS, runReplace } from './replace';
import { SET_ENV_FLAGS, SET_RESOURCES_FLAGS, runSetEnv, runSetResources } from './set';
import { CORDON_FLAGS, EXPOSE_FLAGS, RUN_FLAGS, runCordon, runExpose, runRun, runSetImage, runTaint } from './workloads';
import { EXEC_FLAGS, LOGS_FLAGS, runExec, runLogs } from './logs';
import { ATTACH_FLAGS, runAttach } from './attach';
import { DEBUG_FLAGS, runDebug } from './debug';
import { DRAIN_FLAGS, runDrain } from './drain';
import { AUTOSCALE_FLAGS, runAutoscale } from './autoscale';
import { TOP_NODE_FLAGS, TOP_POD_FLAGS, runTopNode, runTopPod } from './top';
import { configSubcommands } from './config';
import { rolloutSubcommands } from './rollout';
import { WAIT_FLAGS, runWait } from './wait';
import { DRY_RUN_FLAG, OUTPUT_FLAGS } from './common';
import { APPLY_FLAGS, runApply } from './apply';
import { CREATE_FLAGS, createSubcommands, runCreateFiles } from './create';
import { API_RESOURCES_FLAGS, CANI_FLAGS, EVENTS_FLAGS, VERSION_FLAGS, runApiResources, runApiVersions, runCanI, runClusterInfo, runEvents, runVersion, runWhoAmI } from './info';
import { DELETE_FLAGS, LABEL_FLAGS, PATCH_FLAGS, SCALE_FLAGS, runAnnotate, runDelete, runLabel, runPatch, runScale } from './mutate';

const notHere = (name: string) => async (): Promise<void> => fail(errs.plain(`"kubectl ${name}" is not available in this simulation`));

export function buildRoot(): CommandSpec {
  const cmds: CommandSpec[] = [
    { name: 'create', group: 'Basic Commands (Beginner)', short: 'Create a resource from a file or from stdin', use: '-f FILENAME [options]', flags: CREATE_FLAGS, run: runCreateFiles, subcommands: createSubcommands() },
    { name: 'expose', group: 'Basic Commands (Beginner)', short: 'Take a replication controller, service, deployment or pod and expose it as a new Kubernetes service', use: '(-f FILENAME | TYPE NAME) [--port=port] [--protocol=TCP|UDP|SCTP] [--target-port=number-or-name] [--name=name] [--external-ip=external-ip-of-service] [--type=type] [options]', flags: EXPOSE_FLAGS, run: runExpose },
    { name: 'run', group: 'Basic Commands (Beginner)', short: 'Run a particular image on the cluster', use: 'NAME --image=image [--env="key=value"] [--port=port] [--dry-run=server|client] [--overrides=inline-json] [--command] -- [COMMAND] [args...] [options]', flags: RUN_FLAGS, run: runRun },
    { name: 'set', group: 'Basic Commands (Beginner)', short: 'Set specific features on objects', use: 'SUBCOMMAND [options]', subcommands: [{ name: 'env', short: 'Update environment variables on a pod template', use: 'RESOURCE/NAME KEY_1=VAL_1 ... KEY_N=VAL_N [options]', flags: SET_ENV_FLAGS, run: runSetEnv }, { name: 'image', short: 'Update the image of a pod template', use: '(-f FILENAME | TYPE NAME) CONTAINER_NAME_1=CONTAINER_IMAGE_1 ... CONTAINER_NAME_N=CONTAINER_IMAGE_N [options]', flags: [...OUTPUT_FLAGS, DRY_RUN_FLAG, { name: 'all', kind: 'bool' }, { name: 'selector', shorthand: 'l', kind: 'string' }, { name: 'local', kind: 'bool' }, { name: 'field-manager', kind: 'string' }, { name: 'filename', shorthand: 'f', kind: 'stringSlice' }], run: runSetImage }, { name: 'resources', short: 'Update resource requests/limits on objects with pod templates', use: '(-f FILENAME | TYPE NAME)  ([--limits=LIMITS & --requests=REQUESTS] [options]', flags: SET_RESOURCES_FLAGS, run: runSetResources }] },
    { name: 'explain', group: 'Basic Commands (Intermediate)', short: 'Get documentation for a resource', use: 'TYPE [--recursive=FALSE|TRUE] [--api-version=api-version-group] [--output=plaintext|plaintext-openapiv2] [options]', flags: EXPLAIN_FLAGS, run: runExplain },
    { name: 'get', group: 'Basic Commands (Intermediate)', short: 'Display one or many resources', use: '[(-o|--output=)json|yaml|name|go-template|go-template-file|template|templatefile|jsonpath|jsonpath-as-json|jsonpath-file|custom-columns|custom-columns-file|wide] (TYPE[.VERSION][.GROUP] [NAME | -l label] | TYPE[.VERSION][.GROUP]/NAME ...) [flags] [options]', flags: GET_FLAGS, run: runGet, suggestFor: ['list', 'ps'] },
    { name: 'edit', group: 'Basic Commands (Intermediate)', short: 'Edit a resource on the server', use: '(RESOURCE/NAME | -f FILENAME) [options]', flags: EDIT_FLAGS, run: runEdit, suggestFor: ['update'] },
    { name: 'delete', group: 'Basic Commands (Intermediate)', short: 'Delete resources by file names, stdin, resources and names, or by resources and label selector', use: '([-f FILENAME] | [-k DIRECTORY] | TYPE [(NAME | -l label | --all)]) [options]', flags: DELETE_FLAGS, run: runDelete },
    { name: 'rollout', group: 'Deploy Commands', short: 'Manage the rollout of a resource', use: 'SUBCOMMAND [options]', subcommands: rolloutSubcommands() },
    { name: 'scale', group: 'Deploy Commands', short: 'Set a new size for a deployment, replica set, or replication controller', use: '[--resource-version=version] [--current-replicas=count] --replicas=COUNT (-f FILENAME | TYPE NAME) [options]', flags: SCALE_FLAGS, run: runScale },
    { name: 'autoscale', group: 'Deploy Commands', short: 'Auto-scale a deployment, replica set, stateful set, or replication controller', use: '(-f FILENAME | TYPE NAME | TYPE/NAME) [--min=MINPODS] --max=MAXPODS [--cpu-percent=CPU] [options]', flags: AUTOSCALE_FLAGS, run: runAutoscale },
    { name: 'certificate', group: 'Cluster Management Commands', short: 'Modify certificate resources', use: 'SUBCOMMAND [options]', run: notHere('certificate') },
    { name: 'cluster-info', group: 'Cluster Management Commands', short: 'Display cluster information', use: '[flags] [options]', run: runClusterInfo },
    { name: 'top', group: 'Cluster Management Commands', short: 'Display resource (CPU/memory) usage', use: '[flags] [options]', subcommands: [{ name: 'node', aliases: ['nodes', 'no'], short: 'Display resource (CPU/memory) usage of nodes', use: '[NAME | -l label] [options]', flags: TOP_NODE_FLAGS, run: runTopNode }, { name: 'pod', aliases: ['pods', 'po'], short: 'Display resource (CPU/memory) usage of pods', use: '[NAME | -l label] [options]', flags: TOP_POD_FLAGS, run: runTopPod }] },
    { name: 'cordon', group: 'Cluster Management Commands', short: 'Mark node as unschedulable', use: 'NODE [options]', flags: CORDON_FLAGS, run: (ctx, a) => runCordon(ctx, a, true) },
    { name: 'uncordon', group: 'Cluster Management Commands', short: 'Mark node as schedulable', use: 'NODE [options]', flags: CORDON_FLAGS, run: (ctx, a) => runCordon(ctx, a, false) },
    { name: 'drain', group: 'Cluster Management Commands', short: 'Drain node in preparation for maintenance', use: 'NODE [options]', flags: DRAIN_FLAGS, run: runDrain },
    { name: 'taint', group: 'Cluster Management Commands', short: 'Update the taints on one or more nodes', use: 'NODE NAME KEY_1=VAL_1:TAINT_EFFECT_1 ... KEY_N=VAL_N:TAINT_EFFECT_N [options]', flags: [...OUTPUT_FLAGS, DRY_RUN_FLAG, { name: 'overwrite', kind: 'bool' }, { name: 'all', kind: 'bool' }, { name: 'selector', shorthand: 'l', kind: 'string' }, { name: 'validate', kind: 'string', default: 'strict', noOptDefVal: 'strict' }, { name: 'field-manager', kind: 'string' }], run: runTaint },
    { name: 'describe', group: 'Troubleshooting and Debugging Commands', short: 'Show details of a specific resource or group of resources', use: '(-f FILENAME | TYPE [NAME_PREFIX | -l label] | TYPE/NAME) [options]', flags: DESCRIBE_FLAGS, run: runDescribe },
    { name: 'logs', group: 'Troubleshooting and Debugging Commands', short: 'Print the logs for a container in a pod', use: '[-f] [-p] (POD | TYPE/NAME) [-c CONTAINER] [options]', flags: LOGS_FLAGS, run: runLogs },
    { name: 'attach', group: 'Troubleshooting and Debugging Commands', short: 'Attach to a running container', use: '(POD | TYPE/NAME) -c CONTAINER [options]', flags: ATTACH_FLAGS, run: runAttach },
    { name: 'exec', group: 'Troubleshooting and Debugging Commands', short: 'Execute a command in a container', use: '(POD | TYPE/NAME) [-c CONTAINER] [flags] -- COMMAND [args...] [options]', flags: EXEC_FLAGS, run: runExec },
    { name: 'port-forward', group: 'Troubleshooting and Debugging Commands', short: 'Forward one or more local ports to a pod', use: 'TYPE/NAME [options] [LOCAL_PORT:]REMOTE_PORT [...[LOCAL_PORT_N:]REMOTE_PORT_N]', run: notHere('port-forward') },
    { name: 'proxy', group: 'Troubleshooting and Debugging Commands', short: 'Run a proxy to the Kubernetes API server', use: '[--port=PORT] [--www=static-dir] [--www-prefix=prefix] [--api-prefix=prefix] [options]', run: notHere('proxy') },
    { name: 'cp', group: 'Troubleshooting and Debugging Commands', short: 'Copy files and directories to and from containers', use: '<file-spec-src> <file-spec-dest> [options]', run: notHere('cp') },
    {
      name: 'auth',
      group: 'Troubleshooting and Debugging Commands',
      short: 'Inspect authorization',
      use: '[flags] [options]',
      subcommands: [
        { name: 'can-i', short: 'Check whether an action is allowed', use: 'VERB [TYPE | TYPE/NAME | NONRESOURCEURL] [options]', flags: CANI_FLAGS, run: runCanI },
        { name: 'whoami', short: 'Experimental: Check self subject attributes', use: '[options]', flags: [{ name: 'output', shorthand: 'o', kind: 'string' }], run: (ctx) => runWhoAmI(ctx) },
      ],
    },
    { name: 'debug', group: 'Troubleshooting and Debugging Commands', short: 'Create debugging sessions for troubleshooting workloads and nodes', use: '(POD | TYPE[[.VERSION].GROUP]/NAME) [ -- COMMAND [args...] ] [options]', flags: DEBUG_FLAGS, run: runDebug },
    { name: 'events', group: 'Troubleshooting and Debugging Commands', short: 'List events', use: '[(-o|--output=)json|yaml|name|go-template|go-template-file|template|templatefile|jsonpath|jsonpath-as-json|jsonpath-file] [--for TYPE/NAME] [--watch] [--types=Normal,Warning] [options]', flags: EVENTS_FLAGS, run: runEvents },
    { name: 'diff', group: 'Advanced Commands', short: 'Diff the live version against a would-be applied version', use: '-f FILENAME [options]', flags: DIFF_FLAGS, run: (ctx) => runDiff(ctx) },
    { name: 'apply', group: 'Advanced Commands', short: 'Apply a configuration to a resource by file name or stdin', use: '(-f FILENAME | -k DIRECTORY) [options]', flags: APPLY_FLAGS, run: (ctx) => runApply(ctx) },
    { name: 'patch', group: 'Advanced Commands', short: 'Update fields of a resource', use: '(-f FILENAME | TYPE NAME) [-p PATCH|--patch-file FILE] [options]', flags: PATCH_FLAGS, run: runPatch },
    { name: 'replace', group: 'Advanced Commands', short: 'Replace a resource by file name or stdin', use: '-f FILENAME [options]', flags: REPLACE_FLAGS, run: runReplace },
    { name: 'wait', group: 'Advanced Commands', short: 'Experimental: Wait for a specific condition on one or many resources', use: '([-f FILENAME] | resource.group/resource.name | resource.group [(-l label | --all)]) [--for=create|--for=delete|--for condition=available|--for=jsonpath=\'{}\'[=value]] [options]', flags: WAIT_FLAGS, run: runWait },
    { name: 'kustomize', group: 'Advanced Commands', short: 'Build a kustomization target from a directory or URL', use: 'DIR [flags] [options]', run: notHere('kustomize') },
    { name: 'label', group: 'Settings Commands', short: 'Update the labels on a resource', use: '[--overwrite] (-f FILENAME | TYPE NAME) KEY_1=VAL_1 ... KEY_N=VAL_N [--resource-version=version] [options]', flags: LABEL_FLAGS, run: runLabel },
    { name: 'annotate', group: 'Settings Commands', short: 'Update the annotations on a resource', use: '[--overwrite] (-f FILENAME | TYPE NAME) KEY_1=VAL_1 ... KEY_N=VAL_N [--resource-version=version] [options]', flags: LABEL_FLAGS, run: runAnnotate },
    { name: 'completion', group: 'Settings Commands', short: 'Output shell completion code for the specified shell (bash, zsh, fish, or powershell)', use: 'SHELL [options]', run: notHere('completion') },
    { name: 'api-resources', group: 'Other Commands', short: 'Print the supported API resources on the server', use: '[flags] [options]', flags: API_RESOURCES_FLAGS, run: runApiResources },
    { name: 'api-versions', group: 'Other Commands', short: 'Print the supported API versions on the server, in the form of "group/version"', use: '[options]', run: runApiVersions },
    { name: 'config', group: 'Other Commands', short: 'Modify kubeconfig files', use: 'SUBCOMMAND [options]', subcommands: configSubcommands() },
    { name: 'plugin', group: 'Other Commands', short: 'Provides utilities for interacting with plugins', use: '[flags] [options]', run: notHere('plugin') },
    { name: 'version', group: 'Other Commands', short: 'Print the client and server version information', use: '[flags] [options]', flags: VERSION_FLAGS, run: (ctx) => runVersion(ctx) },
    { name: 'options', short: 'Print the list of flags inherited by all commands', use: '[flags] [options]', hidden: true, run: notHere('options') },
  ];
  return { name: 'kubectl', short: 'kubectl controls the Kubernetes cluster manager', use: '[flags] [options]', subcommands: cmds };
}
