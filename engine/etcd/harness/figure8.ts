// An adversarial fault schedule aimed at Figure 8 of the Raft paper: the
// sequence in which counting replicas of an entry from an older term would
// commit it, and a later leader would then overwrite it. It watches the
// cluster after every kernel step (a Jepsen-style targeted nemesis) and acts
// through engine.exec only, so the run still replays from its command log.
//
// (a) Leader L can reach at most one follower P; it appends a big entry E
//     (over raft's 1 MB MaxSizePerMsg, so it later travels alone in a
//     MsgApp) that only L and P persist. L and P crash.
// (b) Another member X is elected; its outbound links are cut the moment it
//     wins, so its new-term entry stays on X alone. L and P restart.
// (c) L or P (L') is elected and catches a follower up: E travels alone, the
//     follower acknowledges E's index, and E sits on a quorum. At that moment
//     L' is cut off (it may still apply what it committed) and then crashed
//     with the other holder. The followers have slow disks and crash too, so
//     L''s newer entries, pipelined right behind E, are lost with them.
// (d) X is let out; its later-term entry beats E in the election, and X
//     overwrites E. If L' committed E in (c) — only a buggy commit rule does —
//     E was applied and is now lost: State Machine Safety and Leader
//     Completeness break. With Raft's rule, E was never committed and (d) is
//     legal.
import type { Engine } from '../../facade/engine';
import type { Rng } from '../../sim/rng';
import type { MemberDurable } from '../server/member';
import { fingerprint } from './raftSafety';
import { registerClass } from '../../sim/serial';

/** An entry this big always travels alone in a MsgApp (raft MaxSizePerMsg is 1 MB). */
export const FIGURE8_BIG_BYTES = 1_000_000;

/** What the nemesis needs from the fault scheduler. */
export interface NemesisHost {
  crash(member: string, now: number): void;
  restart(member: string, now: number): void;
  block(from: string, to: string, now: number): void;
  heal(now: number): void;
  isDown(member: string): boolean;
  slowDisk(member: string, fsyncMs: number, now: number): void;
}

type Stage =
  | { type: 'idle'; until: number }
  | { type: 'isolateLeader'; leader: string; term: number; partner: string | null; deadline: number }
  | { type: 'electOther'; old: Old; deadline: number }
  | { type: 'electHolder'; old: Old; x: string; xTerm: number; deadline: number }
  | { type: 'applyOld'; old: Old; x: string; holder: string; deadline: number }
  | { type: 'releaseX'; old: Old; term: number; healAt: number | null; deadline: number };

interface Old {
  index: number;
  term: number;
  fp: string;
  holders: string[];
}

export class Figure8Nemesis {
  private stage: Stage;
  attempts = 0;
  /** Stage transitions, for reports and debugging. */
  readonly log: string[] = [];
  /** Attempts that reached (d). */
  completed = 0;

  constructor(
    private readonly engine: Engine,
    private readonly rng: Rng,
    private readonly host: NemesisHost,
    private readonly members: readonly string[],
    start: number,
  ) {
    this.stage = { type: 'idle', until: start + 300 };
  }

  /** Whether the nemesis is waiting for the isolated leader to append a big entry. */
  wantsBigValue(): boolean {
    return this.stage.type === 'isolateLeader';
  }

  /** The next time the nemesis wants to act without a kernel event (timeouts). */
  nextTime(): number {
    const s = this.stage;
    if (s.type === 'idle') return s.until;
    if (s.type === 'releaseX' && s.healAt !== null) return s.healAt;
    return s.deadline;
  }

  private m(name: string) {
    return this.engine.member(name);
  }

  private majority(): number {
    return Math.floor(this.members.length / 2) + 1;
  }

  /** Gives up the current attempt: everything healed and up again, retry a little later. */
  private to(now: number, stage: Stage, why: string): void {
    this.stage = stage;
    if (this.log.length < 100) this.log.push(`${now.toFixed(1)} ${stage.type}: ${why}`);
  }

  private abort(now: number, why = 'timeout'): void {
    if (this.log.length < 100) this.log.push(`${now.toFixed(1)} abort in ${this.stage.type}: ${why}`);
    this.host.heal(now);
    for (const name of this.members) if (this.host.isDown(name)) this.host.restart(name, now);
    this.stage = { type: 'idle', until: now + 500 + this.rng.float() * 1000 };
  }

  private cutOutbound(from: string, now: number, except: string | null = null): void {
    for (const to of this.members) if (to !== from && to !== except) this.host.block(from, to, now);
  }

  /** Call after every kernel step and at nextTime(). */
  act(now: number): void {
    const s = this.stage;
    switch (s.type) {
      case 'idle': {
        if (now < s.until) return;
        const leader = this.engine.leader();
        if (!leader || this.members.some((n) => this.host.isDown(n))) {
          s.until = now + 100;
          return;
        }
        const lm = this.m(leader)!;
        const followers = this.members.filter((n) => n !== leader);
        // With 5 members one follower shares the entry (Figure 8's S2); with 3, none may.
        const partner = this.members.length >= 5 ? this.rng.pick(followers) : null;
        this.attempts++;
        this.cutOutbound(leader, now, partner);
        this.to(now, { type: 'isolateLeader', leader, term: lm.node.raft.term, partner, deadline: now + 4000 }, `${leader} (term ${lm.node.raft.term}) reaches only ${partner ?? 'itself'}`);
        return;
      }
      case 'isolateLeader': {
        if (now >= s.deadline) return this.abort(now);
        const lm = this.m(s.leader);
        if (!lm || lm.node.raft.term !== s.term || lm.node.raft.state !== 'StateLeader') return this.abort(now, `${s.leader} no longer leads`);
        const log = lm.node.raft.raftLog;
        let big = 0;
        for (let i = log.committed + 1; i <= log.lastIndex(); i++) {
          const e = log.entryAt(i);
          if (e && e.term === s.term && e.data.length >= FIGURE8_BIG_BYTES) {
            big = i;
            break;
          }
        }
        if (big === 0) return;
        const e = log.entryAt(big)!;
        const holders = [s.leader];
        if (s.partner) holders.push(s.partner);
        // Every holder must have it on disk (a crash keeps only that) and identical.
        for (const h of holders) {
          const st = this.engine.sim.durable<MemberDurable>(h).storage;
          if (st.lastIndex() < big) return;
          const r = st.entries(big, big + 1, Infinity);
          if (!Array.isArray(r) || !r[0] || fingerprint(r[0]) !== fingerprint(e)) return;
        }
        // (Their links stay cut: messages still in flight must not land after a heal.)
        for (const h of holders) this.host.crash(h, now);
        this.to(now, { type: 'electOther', old: { index: big, term: e.term, fp: fingerprint(e), holders }, deadline: now + 5000 }, `entry ${big} (term ${e.term}) on ${holders.join(', ')} only; they crash`);
        return;
      }
      case 'electOther': {
        if (now >= s.deadline) return this.abort(now);
        const x = this.leaderAbove(s.old.term);
        if (!x) return;
        if (s.old.holders.includes(x)) return this.abort(now, `holder ${x} leads`);
        // Cut X off in the very instant it wins: its new-term entry (in flight)
        // is dropped on arrival. The holders' old cuts go first.
        this.host.heal(now);
        this.cutOutbound(x, now);
        for (const h of s.old.holders) this.host.restart(h, now);
        // The others persist slowly: when one acknowledges the old entry, the
        // new leader's next entry (pipelined right behind it) is still only in
        // its memory, and a crash then loses it — a power cut at a bad time.
        for (const o of this.others(s.old, x)) this.host.slowDisk(o, 100, now);
        this.to(now, { type: 'electHolder', old: s.old, x, xTerm: this.m(x)!.node.raft.term, deadline: now + 6000 }, `${x} leads term ${this.m(x)!.node.raft.term} (last index ${this.m(x)!.node.raft.raftLog.lastIndex()}), cut off; holders restart`);
        return;
      }
      case 'electHolder': {
        if (now >= s.deadline) return this.abort(now);
        const lead = this.leaderAbove(s.xTerm);
        if (!lead) return;
        if (!s.old.holders.includes(lead)) return this.abort(now, `non-holder ${lead} leads`);
        const lm = this.m(lead)!;
        const e = lm.node.raft.raftLog.entryAt(s.old.index);
        if (!e || fingerprint(e) !== s.old.fp) return this.abort(now, `${lead} lost the entry`);
        // Does the old entry sit on a quorum now?
        let n = 0;
        for (const pr of lm.node.raft.prs.progress.values()) if (pr.match >= s.old.index) n++;
        if (n < this.majority()) return;
        this.cutOutbound(lead, now);
        this.to(now, { type: 'applyOld', old: s.old, x: s.x, holder: lead, deadline: now + 50 }, `${lead} (term ${lm.node.raft.term}) has entry ${s.old.index} on a quorum, commit ${lm.node.raft.raftLog.committed}; cut off`);
        return;
      }
      case 'applyOld': {
        const lm = this.m(s.holder);
        const applied = lm ? lm.sm.appliedIndex >= s.old.index : false;
        if (!applied && now < s.deadline) return;
        // The holders go; X is let out.
        const term = lm?.node.raft.term ?? 0;
        for (const h of s.old.holders) if (!this.host.isDown(h)) this.host.crash(h, now);
        for (const o of this.others(s.old, s.x)) {
          if (!this.host.isDown(o)) this.host.crash(o, now);
          this.host.restart(o, now);
          this.host.slowDisk(o, 1, now);
        }
        // Heal once whatever the holder sent has arrived (and been dropped).
        this.to(now, { type: 'releaseX', old: s.old, term, healAt: now + 100, deadline: now + 5000 }, `${s.holder} applied ${lm?.sm.appliedIndex}; holders crash, ${s.x} let out`);
        return;
      }
      case 'releaseX': {
        if (s.healAt !== null) {
          if (now < s.healAt) return;
          this.host.heal(now);
          s.healAt = null;
          if (this.log.length < 100) this.log.push(`${now.toFixed(1)} healed: ${this.describeLogs()}`);
        }
        const lead = this.leaderAbove(s.term);
        if (!lead && now < s.deadline) return;
        if (lead) this.completed++;
        for (const h of s.old.holders) if (this.host.isDown(h)) this.host.restart(h, now);
        this.to(now, { type: 'idle', until: now + 1000 + this.rng.float() * 1000 }, lead ? `${lead} leads` : 'no leader');
        return;
      }
    }
  }

  /** Members that neither hold the old entry nor are X. */
  private others(old: Old, x: string): string[] {
    return this.members.filter((n) => n !== x && !old.holders.includes(n));
  }

  private describeLogs(): string {
    return this.members
      .map((name) => {
        const m = this.m(name);
        if (!m) return `${name} down`;
        const log = m.node.raft.raftLog;
        const last = log.lastIndex();
        return `${name} term ${m.node.raft.term} last ${last}/${log.entryAt(last)?.term} commit ${log.committed}`;
      })
      .join('; ');
  }

  /** A live leader whose term is above `term`, if any. */
  private leaderAbove(term: number): string | null {
    for (const name of this.members) {
      const m = this.m(name);
      if (m && m.node.raft.state === 'StateLeader' && m.node.raft.term > term) return name;
    }
    return null;
  }
}

registerClass('harness.Figure8Nemesis', Figure8Nemesis);
