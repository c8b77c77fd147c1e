// The ControllerContext the manager gives a controller for one call: its
// stores, its REST calls (as its ServiceAccount), its events.
import type { KObject } from '../../apimachinery/types';
import type { ActorContext } from '../../sim/kernel';
import type { Rng } from '../../sim/rng';
import type { ApiCall, ControllerContext, EventSpec } from './types';

export interface ContextHost {
  storeOf(resource: string): ReadonlyMap<string, KObject>;
  isSynced(resource: string): boolean;
  podsOwnedBy(namespace: string, ownerUid: string): KObject[];
  listNamespace(resource: string, namespace: string): KObject[];
  controllerRequest(ctx: ActorContext, controller: string, call: ApiCall, tag: unknown): void;
  controllerEvent(ctx: ActorContext, controller: string, e: EventSpec): void;
}

export class ManagerContext implements ControllerContext {
  constructor(
    private readonly host: ContextHost,
    private readonly ctx: ActorContext,
    private readonly controller: string,
  ) {}

  get now(): number {
    return this.ctx.now;
  }

  get rng(): Rng {
    return this.ctx.rng;
  }

  store(resource: string): ReadonlyMap<string, KObject> {
    return this.host.storeOf(resource);
  }

  synced(resource: string): boolean {
    return this.host.isSynced(resource);
  }

  podsOwnedBy(namespace: string, ownerUid: string): KObject[] {
    return this.host.podsOwnedBy(namespace, ownerUid);
  }

  list(resource: string, namespace: string): KObject[] {
    return this.host.listNamespace(resource, namespace);
  }

  request(call: ApiCall, tag: unknown): void {
    this.host.controllerRequest(this.ctx, this.controller, call, tag);
  }

  event(e: EventSpec): void {
    this.host.controllerEvent(this.ctx, this.controller, e);
  }
}
