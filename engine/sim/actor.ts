// Actors: every simulated component (etcd member, client, later apiserver,
// kubelet...) reacts to messages, timers and completed disk writes delivered by
// the kernel. It never reads another actor's memory: it only sends messages.
import type { ActorContext } from './kernel';

/** Stable actor names: `etcd-0`, `etcd-client-0`, later `kube-apiserver-0`, node names. */
export type ActorId = string;

/** A payload on the simulated network. `type` names it in traces (`MsgApp`, `RangeRequest`). */
export interface Payload {
  readonly type: string;
}

export interface Actor {
  /** Called when the actor boots, and again after each restart (on a fresh instance). */
  start(ctx: ActorContext): void;
  receive(ctx: ActorContext, from: ActorId, payload: Payload): void;
  timer(ctx: ActorContext, tag: string, data: unknown): void;
  /** A disk write requested with ctx.persist() is durable now. */
  persisted(ctx: ActorContext, tag: string, data: unknown): void;
  /**
   * Optional: a message this actor sent reached a host whose process is down,
   * and the connection was refused (a TCP RST comes back). Not called for
   * partitions or loss, where the sender hears nothing.
   */
  refused?(ctx: ActorContext, to: ActorId, payload: Payload): void;
  /** Optional: `peer`'s process crashed and its host reset the connection to us. */
  peerReset?(ctx: ActorContext, peer: ActorId): void;
}

/**
 * Builds an actor from its durable state: at boot `durable` is what `initDurable`
 * returned; after a crash it is whatever the actor had persisted. Volatile state
 * is simply not carried over: the factory makes a fresh instance.
 */
/** What a new actor instance gets besides its config and durable state. */
export interface ActorEnv {
  /** The actor's own random stream (survives restarts). */
  rng: import('./rng').Rng;
  /** Virtual time of the (re)boot. */
  now: number;
}

export interface ActorKind<Config, Durable> {
  readonly kind: string;
  initDurable(config: Config): Durable;
  create(id: ActorId, config: Config, durable: Durable, env: ActorEnv): Actor;
  /**
   * What the machine itself does with some payloads while the actor's
   * process is down but its host is up (a crashed kubelet's node still routes
   * its pods' packets): `types` it takes, handled with the durable state.
   */
  readonly host?: { types: ReadonlySet<string>; receive(host: HostContext, durable: Durable, from: ActorId, payload: Payload): void };
}

/** What a host can do without its process: the time, and sending from its address. */
export interface HostContext {
  readonly now: number;
  send(to: ActorId, payload: Payload): void;
  /** The host a pod (or node) address is routed to, as the network's route table has it. */
  podRouteOf(ip: string): ActorId | undefined;
}
