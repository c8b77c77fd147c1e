// printPod and printPodTemplate (pkg/printers/internalversion/printers.go, v1.32),
// read from v1 JSON: v1's lastState is the internal LastTerminationState.
import type { KObject } from '../../apimachinery/types';
import { formatLabels } from '../../apimachinery/selectors/labels';
import { humanDuration, parseTime } from './age';
import { AGE_COLUMN, col, NAME_COLUMN, type Printer, type TableRowCondition } from './types';
import { age, arr, int, layoutContainerCells, name, obj, spec, status, str, strMap, type Obj } from './util';

/** node.NodeUnreachablePodReason: the node controller marks pods on a lost node. */
const NODE_UNREACHABLE_POD_REASON = 'NodeLost';
/** v1.PodReasonSchedulingGated. */
const POD_REASON_SCHEDULING_GATED = 'SchedulingGated';

const SUCCEEDED: TableRowCondition[] = [{ type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' }];
const FAILED: TableRowCondition[] = [{ type: 'Completed', status: 'True', reason: 'Failed', message: 'The pod failed.' }];

/** podutil.IsRestartableInitContainer: a sidecar, restartPolicy Always. */
function isRestartableInitContainer(c: Obj | undefined): boolean {
  return c !== undefined && str(c['restartPolicy']) === 'Always';
}

function hasCondition(conditions: Obj[], type: string): Obj | undefined {
  return conditions.find((c) => str(c['type']) === type);
}

/** isPodInitializedConditionTrue: the first Initialized condition decides. */
function isPodInitializedConditionTrue(conditions: Obj[]): boolean {
  const c = hasCondition(conditions, 'Initialized');
  return c !== undefined && str(c['status']) === 'True';
}

function hasPodReadyCondition(conditions: Obj[]): boolean {
  return conditions.some((c) => str(c['type']) === 'Ready' && str(c['status']) === 'True');
}

/** A terminated state's finish time; absent or null is the zero time. */
function finishedAt(containerStatus: Obj): number | undefined {
  const terminated = obj(containerStatus['lastState'])['terminated'];
  return terminated === undefined || terminated === null ? undefined : parseTime(obj(terminated)['finishedAt']);
}

const later = (a: number | undefined, b: number | undefined) => (b !== undefined && (a === undefined || a < b) ? b : a);

export const podPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Ready', 'string', { text: 'The aggregate readiness state of this pod for accepting traffic.' }),
    col('Status', 'string', { text: 'The aggregate status of the containers in this pod.' }),
    col('Restarts', 'string', {
      text: 'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.',
    }),
    AGE_COLUMN,
    col('IP', 'string', 'pod.status.podIP', { priority: 1 }),
    col('Node', 'string', 'pod.spec.nodeName', { priority: 1 }),
    col('Nominated Node', 'string', 'pod.status.nominatedNodeName', { priority: 1 }),
    col('Readiness Gates', 'string', 'pod.spec.readinessGates', { priority: 1 }),
  ],
  print(pod: KObject, now: number) {
    const sp = spec(pod);
    const st = status(pod);
    const conditions = arr(st['conditions']).map(obj);
    const initSpecs = arr(sp['initContainers']).map(obj);
    const initStatuses = arr(st['initContainerStatuses']).map(obj);
    const containerStatuses = arr(st['containerStatuses']).map(obj);

    let restarts = 0;
    let restartableInitContainerRestarts = 0;
    let totalContainers = arr(sp['containers']).length;
    let readyContainers = 0;
    let lastRestartDate: number | undefined;
    let lastRestartableInitContainerRestartDate: number | undefined;

    const podPhase = str(st['phase']);
    let reason = str(st['reason']) || podPhase;
    for (const c of conditions) {
      if (str(c['type']) === 'PodScheduled' && str(c['reason']) === POD_REASON_SCHEDULING_GATED) reason = POD_REASON_SCHEDULING_GATED;
    }

    const initContainers = new Map<string, Obj>();
    for (const c of initSpecs) {
      initContainers.set(str(c['name']), c);
      if (isRestartableInitContainer(c)) totalContainers++;
    }

    let initializing = false;
    for (let i = 0; i < initStatuses.length; i++) {
      const container = initStatuses[i]!;
      const state = obj(container['state']);
      const terminated = state['terminated'] == null ? undefined : obj(state['terminated']);
      const waiting = state['waiting'] == null ? undefined : obj(state['waiting']);
      const restartable = isRestartableInitContainer(initContainers.get(str(container['name'])));
      restarts += int(container['restartCount']);
      lastRestartDate = later(lastRestartDate, finishedAt(container));
      if (restartable) {
        restartableInitContainerRestarts += int(container['restartCount']);
        lastRestartableInitContainerRestartDate = later(lastRestartableInitContainerRestartDate, finishedAt(container));
      }
      if (terminated && int(terminated['exitCode']) === 0) continue;
      if (restartable && container['started'] === true) {
        if (container['ready'] === true) readyContainers++;
        continue;
      }
      if (terminated) {
        // Initialization failed.
        const r = str(terminated['reason']);
        if (r === '') reason = int(terminated['signal']) !== 0 ? `Init:Signal:${int(terminated['signal'])}` : `Init:ExitCode:${int(terminated['exitCode'])}`;
        else reason = `Init:${r}`;
      } else if (waiting && str(waiting['reason']) !== '' && str(waiting['reason']) !== 'PodInitializing') {
        reason = `Init:${str(waiting['reason'])}`;
      } else {
        reason = `Init:${i}/${initSpecs.length}`;
      }
      initializing = true;
      break;
    }

    if (!initializing || isPodInitializedConditionTrue(conditions)) {
      restarts = restartableInitContainerRestarts;
      lastRestartDate = lastRestartableInitContainerRestartDate;
      let hasRunning = false;
      // Walked backwards, so the first container's state has the last word.
      for (let i = containerStatuses.length - 1; i >= 0; i--) {
        const container = containerStatuses[i]!;
        const state = obj(container['state']);
        const terminated = state['terminated'] == null ? undefined : obj(state['terminated']);
        const waiting = state['waiting'] == null ? undefined : obj(state['waiting']);
        restarts += int(container['restartCount']);
        lastRestartDate = later(lastRestartDate, finishedAt(container));
        if (waiting && str(waiting['reason']) !== '') reason = str(waiting['reason']);
        else if (terminated && str(terminated['reason']) !== '') reason = str(terminated['reason']);
        else if (terminated) reason = int(terminated['signal']) !== 0 ? `Signal:${int(terminated['signal'])}` : `ExitCode:${int(terminated['exitCode'])}`;
        else if (container['ready'] === true && state['running'] != null) {
          hasRunning = true;
          readyContainers++;
        }
      }
      // A pod whose first container completed while another still runs is not "Completed".
      if (reason === 'Completed' && hasRunning) reason = hasPodReadyCondition(conditions) ? 'Running' : 'NotReady';
    }

    const deleting = pod.metadata.deletionTimestamp !== undefined && pod.metadata.deletionTimestamp !== null;
    if (deleting && str(st['reason']) === NODE_UNREACHABLE_POD_REASON) reason = 'Unknown';
    else if (deleting && podPhase !== 'Succeeded' && podPhase !== 'Failed') reason = 'Terminating';

    const restartsStr = restarts !== 0 && lastRestartDate !== undefined ? `${restarts} (${humanDuration(now - lastRestartDate)} ago)` : String(restarts);

    const podIPs = arr(st['podIPs']).map(obj);
    const podIP = (podIPs.length > 0 ? str(podIPs[0]!['ip']) : '') || '<none>';
    const nodeName = str(sp['nodeName']) || '<none>';
    const nominatedNodeName = str(st['nominatedNodeName']) || '<none>';
    const gates = arr(sp['readinessGates']).map(obj);
    let readinessGates = '<none>';
    if (gates.length > 0) {
      let trueConditions = 0;
      for (const g of gates) {
        const c = hasCondition(conditions, str(g['conditionType']));
        if (c && str(c['status']) === 'True') trueConditions++;
      }
      readinessGates = `${trueConditions}/${gates.length}`;
    }

    const row = {
      cells: [name(pod), `${readyContainers}/${totalContainers}`, reason, restartsStr, age(pod, now), podIP, nodeName, nominatedNodeName, readinessGates],
    };
    if (podPhase === 'Succeeded') return { ...row, conditions: SUCCEEDED };
    if (podPhase === 'Failed') return { ...row, conditions: FAILED };
    return row;
  },
};

export const podTemplatePrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Containers', 'string', { text: 'Names of each container in the template.' }),
    col('Images', 'string', { text: 'Images referenced by each container in the template.' }),
    col('Pod Labels', 'string', { text: 'The labels for the pod template.' }),
  ],
  print(o) {
    const template = obj(o['template']);
    const [names, images] = layoutContainerCells(obj(template['spec'])['containers']);
    return { cells: [name(o), names, images, formatLabels(strMap(obj(template['metadata'])['labels']))] };
  },
};
