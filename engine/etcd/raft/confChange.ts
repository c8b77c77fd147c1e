// Single-step membership changes (upstream confchange/confchange.go Simple and
// confchange/restore.go, restricted to non-joint configs). Changes are checked
// before the tracker is touched; invalid ones throw, as upstream panics.
import { ProgressTracker } from './tracker/progressTracker';
import { Progress } from './tracker/progress';
import type { ConfChange, ConfChangeType, ConfState, RaftId } from './types';
import { assertNever, panic } from './util';

/** Entry data of an EntryConfChange: JSON of the ConfChange. */
export function encodeConfChange(cc: ConfChange): string {
  const out: ConfChange = { type: cc.type, nodeId: cc.nodeId };
  if (cc.id !== undefined) out.id = cc.id;
  if (cc.context !== undefined) out.context = cc.context;
  return JSON.stringify(out);
}

export function decodeConfChange(data: string): ConfChange {
  const v = JSON.parse(data) as { type?: unknown; nodeId?: unknown; id?: unknown; context?: unknown };
  const t = v.type;
  if (
    (t !== 'ConfChangeAddNode' && t !== 'ConfChangeRemoveNode' && t !== 'ConfChangeAddLearnerNode') ||
    typeof v.nodeId !== 'number'
  ) {
    return panic(`invalid conf change data: ${data}`);
  }
  const cc: ConfChange = { type: t as ConfChangeType, nodeId: v.nodeId };
  if (typeof v.id === 'number') cc.id = v.id;
  if (typeof v.context === 'string') cc.context = v.context;
  return cc;
}

function insertSorted(ids: RaftId[], id: RaftId): void {
  if (ids.includes(id)) return;
  ids.push(id);
  ids.sort((a, b) => a - b);
}

function removeId(ids: RaftId[], id: RaftId): void {
  const i = ids.indexOf(id);
  if (i >= 0) ids.splice(i, 1);
}

/**
 * A new member's progress. Next starts at the leader's last index (upstream
 * initProgress: "seems awfully optimistic"), and it counts as recently active
 * so CheckQuorum does not step the leader down before it could answer.
 */
function initProgress(trk: ProgressTracker, id: RaftId, isLearner: boolean, lastIndex: number): void {
  if (isLearner) insertSorted(trk.learners, id);
  else insertSorted(trk.voters, id);
  trk.progress.set(id, new Progress(lastIndex, 0, trk.maxInflight, isLearner, true));
}

/** Applies one simple change to the tracker in place; throws if it is invalid. */
export function applySimpleChange(trk: ProgressTracker, cc: ConfChange, lastIndex: number): void {
  const id = cc.nodeId;
  if (id === 0) return; // etcd replaces the NodeID with zero if it decides (downstream of raft) to not apply a change
  // Check first so an invalid change leaves the tracker untouched.
  const votersAfter = trk.voters.filter((v) => v !== id);
  if (cc.type === 'ConfChangeAddNode') votersAfter.push(id);
  if (votersAfter.length === 0) panic('removed all voters');

  switch (cc.type) {
    case 'ConfChangeAddNode': {
      const pr = trk.progress.get(id);
      if (pr === undefined) {
        initProgress(trk, id, false, lastIndex);
      } else {
        pr.isLearner = false;
        removeId(trk.learners, id);
        insertSorted(trk.voters, id);
      }
      break;
    }
    case 'ConfChangeAddLearnerNode': {
      const pr = trk.progress.get(id);
      if (pr === undefined) {
        initProgress(trk, id, true, lastIndex);
      } else if (!pr.isLearner) {
        // demote: drop from the voters but keep the Progress
        removeId(trk.voters, id);
        pr.isLearner = true;
        insertSorted(trk.learners, id);
      }
      break;
    }
    case 'ConfChangeRemoveNode': {
      if (!trk.progress.has(id)) return;
      removeId(trk.voters, id);
      removeId(trk.learners, id);
      trk.progress.delete(id);
      break;
    }
    default:
      assertNever(cc.type);
  }
  trk.refreshIds();
}

/** Builds the configuration described by a ConfState into an empty tracker (upstream Restore). */
export function restoreConfState(trk: ProgressTracker, cs: ConfState, lastIndex: number): void {
  for (const id of cs.learners) {
    if (cs.voters.includes(id)) panic(`${id} is in Voters and Learners`);
  }
  for (const id of cs.voters) applySimpleChange(trk, { type: 'ConfChangeAddNode', nodeId: id }, lastIndex);
  for (const id of cs.learners) applySimpleChange(trk, { type: 'ConfChangeAddLearnerNode', nodeId: id }, lastIndex);
}
