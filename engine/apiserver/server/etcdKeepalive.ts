// gRPC keepalive on the API server's etcd connections, as kube-apiserver
// configures clientv3 (staging/src/k8s.io/apiserver/pkg/storage/
// storagebackend/factory/etcd3.go: keepaliveTime 30 s, keepaliveTimeout
// 10 s): a connection with a stream open (the watch cache's watches) and
// nothing read for 30 s gets an HTTP/2 PING; no ACK within 10 s and the
// connection is closed, which fails what was on it. clientv3 then resumes its
// watches from the last revision it delivered, on a connection to a member it
// can reach. A cut shorter than that only delays the events (TCP holds them).
import type { ActorId, Payload } from '../../sim/actor';
import type { ActorContext } from '../../sim/kernel';
import { registerClass } from '../../sim/serial';
import type { GrpcPing } from '../../etcd/server/messages';

export const ETCD_KEEPALIVE_TIME_MS = 30_000;
export const ETCD_KEEPALIVE_TIMEOUT_MS = 10_000;
export const ETCD_KEEPALIVE_TIMER = 'etcdKeepalive';

export class EtcdKeepalive {
  /** When anything was last read from each member's connection. */
  private readonly lastRead = new Map<ActorId, number>();
  /** The PING waiting for its ACK, per member. */
  private readonly ping = new Map<ActorId, { seq: number; at: number }>();
  /** Members whose check timer is queued. */
  private readonly armed = new Set<ActorId>();
  private seq = 0;

  /** Something came from `member` (a PONG clears the PING). */
  read(member: ActorId, now: number, pongSeq?: number): void {
    this.lastRead.set(member, now);
    if (pongSeq !== undefined && this.ping.get(member)?.seq === pongSeq) this.ping.delete(member);
  }

  /** A stream is open on `member`: its connection is checked from now on. */
  streaming(ctx: ActorContext, member: ActorId): void {
    if (!this.lastRead.has(member)) this.lastRead.set(member, ctx.now);
    if (!this.armed.has(member)) this.arm(ctx, member, ETCD_KEEPALIVE_TIME_MS);
  }

  private arm(ctx: ActorContext, member: ActorId, delayMs: number): void {
    this.armed.add(member);
    ctx.setTimer(Math.max(0, delayMs), ETCD_KEEPALIVE_TIMER, member);
  }

  /** The check came due: 'dead' when the connection must be closed. `streams`: whether one is still open on it. */
  timer(ctx: ActorContext, member: ActorId, streams: boolean): 'dead' | null {
    this.armed.delete(member);
    const p = this.ping.get(member);
    if (p) {
      if (ctx.now - p.at < ETCD_KEEPALIVE_TIMEOUT_MS) {
        this.arm(ctx, member, p.at + ETCD_KEEPALIVE_TIMEOUT_MS - ctx.now);
        return null;
      }
      this.ping.delete(member);
      this.lastRead.delete(member);
      return 'dead';
    }
    // No stream open: gRPC does not ping (PermitWithoutStream is off).
    if (!streams) return null;
    const idle = ctx.now - (this.lastRead.get(member) ?? ctx.now);
    if (idle < ETCD_KEEPALIVE_TIME_MS) {
      this.arm(ctx, member, ETCD_KEEPALIVE_TIME_MS - idle);
      return null;
    }
    const seq = ++this.seq;
    this.ping.set(member, { seq, at: ctx.now });
    ctx.send(member, { type: 'GrpcPing', seq } satisfies GrpcPing as unknown as Payload);
    this.arm(ctx, member, ETCD_KEEPALIVE_TIMEOUT_MS);
    return null;
  }
}

registerClass('EtcdKeepalive', EtcdKeepalive);
