// How Raft things look: role and message-type styles. Colour always comes with
// a label or a shape, never alone.
import type { EtcdMemberView } from '../../engine/facade/types';

export type RoleOrDown = EtcdMemberView['role'];

export const ROLE_LOOK: Record<RoleOrDown, { label: string; icon: string; cssVar: string }> = {
  leader: { label: 'leader', icon: '★', cssVar: '--role-leader' },
  follower: { label: 'follower', icon: '●', cssVar: '--role-follower' },
  candidate: { label: 'candidate', icon: '◆', cssVar: '--role-candidate' },
  'pre-candidate': { label: 'pre-candidate', icon: '◇', cssVar: '--role-precandidate' },
  down: { label: 'down', icon: '✕', cssVar: '--role-down' },
};

export type MsgFamily = 'app' | 'heartbeat' | 'vote' | 'prevote' | 'snap' | 'timeout' | 'client' | 'other';

export const FAMILY_LOOK: Record<MsgFamily, { label: string; cssVar: string }> = {
  prevote: { label: 'PreVote', cssVar: '--msg-prevote' },
  vote: { label: 'Vote', cssVar: '--msg-vote' },
  app: { label: 'App (append)', cssVar: '--msg-app' },
  heartbeat: { label: 'Heartbeat', cssVar: '--msg-heartbeat' },
  snap: { label: 'Snapshot', cssVar: '--msg-snap' },
  timeout: { label: 'TimeoutNow', cssVar: '--msg-timeout' },
  client: { label: 'Client request', cssVar: '--msg-client' },
  other: { label: 'Other', cssVar: '--msg-other' },
};

export interface MsgLook {
  family: MsgFamily;
  /** Responses are drawn hollow, requests filled. */
  response: boolean;
  /** Short label drawn beside the dot. */
  short: string;
}

const cache = new Map<string, MsgLook>();

export function msgLook(type: string): MsgLook {
  const hit = cache.get(type);
  if (hit) return hit;
  const base = type.replace(/^Msg/, '');
  const response = /Resp(onse)?$/.test(base);
  const stem = base.replace(/Resp(onse)?$/, '');
  let family: MsgFamily;
  let short: string;
  switch (stem) {
    case 'App':
      family = 'app';
      short = 'App';
      break;
    case 'Heartbeat':
      family = 'heartbeat';
      short = 'HB';
      break;
    case 'Vote':
      family = 'vote';
      short = 'Vote';
      break;
    case 'PreVote':
      family = 'prevote';
      short = 'PreVote';
      break;
    case 'Snap':
    case 'Snapshot':
    case 'RaftSnapshot': // the answer to rafthttp's snapshot POST
      family = 'snap';
      short = 'Snap';
      break;
    case 'TimeoutNow':
      family = 'timeout';
      short = 'TimeoutNow';
      break;
    default:
      family = type.startsWith('Msg') ? 'other' : 'client';
      short = stem.replace(/Request$/, '');
  }
  const look = { family, response, short: response ? `${short}↩` : short };
  cache.set(type, look);
  return look;
}

/** Fills for log entries by term (cycled), with a text colour that reads on each. */
const TERM_COLORS: [string, string][] = [
  ['#4e79a7', '#fff'],
  ['#f28e2b', '#111'],
  ['#59a14f', '#fff'],
  ['#e15759', '#fff'],
  ['#76b7b2', '#111'],
  ['#edc948', '#111'],
  ['#b07aa1', '#fff'],
  ['#ff9da7', '#111'],
  ['#9c755f', '#fff'],
  ['#bab0ac', '#111'],
];

export function termColor(term: number): { fill: string; text: string } {
  const [fill, text] = TERM_COLORS[((term % TERM_COLORS.length) + TERM_COLORS.length) % TERM_COLORS.length]!;
  return { fill, text };
}
