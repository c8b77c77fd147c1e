// The scheduling queue: see schedulingQueue.ts.
export type { QueuedPodInfo } from '../framework/interface';
export { PriorityQueue, type PriorityQueueOptions, type PreEnqueueCheck, type QueueName, type QueuedPod, type QueueEntry, type QueueView } from './schedulingQueue';
export { Nominator, type NominatingInfo, type NominatingMode, type PodRef } from './nominator';
export { calculateBackoffDuration, DEFAULT_POD_INITIAL_BACKOFF_MS, DEFAULT_POD_MAX_BACKOFF_MS, DEFAULT_POD_MAX_IN_UNSCHEDULABLE_PODS_DURATION_MS } from './backoff';
export * from './events';
export type { InFlightClusterEvent, InFlightLogEntry } from './activeQueue';
