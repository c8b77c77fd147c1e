// framework.Status (pkg/scheduler/framework/interface.go): a closed set of
// codes with reasons. Success is `null`, as Go's nil *Status is success, so
// the hot path (a filter that passes) allocates nothing.

export type Code =
  | 'Success'
  | 'Error'
  | 'Unschedulable'
  /** No amount of preemption on this node would help. */
  | 'UnschedulableAndUnresolvable'
  | 'Wait'
  | 'Skip'
  | 'Pending';

export interface Status {
  readonly code: Exclude<Code, 'Success'>;
  readonly reasons: readonly string[];
  /** The plugin that returned it (set by the framework). */
  plugin?: string;
}

/** `null` is success. */
export type MaybeStatus = Status | null;

export function unschedulable(...reasons: string[]): Status {
  return { code: 'Unschedulable', reasons };
}

export function unresolvable(...reasons: string[]): Status {
  return { code: 'UnschedulableAndUnresolvable', reasons };
}

export function errorStatus(message: string): Status {
  return { code: 'Error', reasons: [message] };
}

export const SKIP: Status = Object.freeze({ code: 'Skip', reasons: [] }) as Status;

export function isSuccess(s: MaybeStatus): s is null {
  return s === null;
}

/** Status.IsRejected: Unschedulable, UnschedulableAndUnresolvable or Pending. */
export function isRejected(s: MaybeStatus): boolean {
  return s !== null && (s.code === 'Unschedulable' || s.code === 'UnschedulableAndUnresolvable' || s.code === 'Pending');
}

/** Status.Message: the reasons joined by ", ". */
export function message(s: MaybeStatus): string {
  return s === null ? '' : s.reasons.join(', ');
}

/** Status.WithPlugin. A fresh status (what plugins return on rejection) is tagged in place; shared (frozen) ones are copied. */
export function withPlugin(s: Status, plugin: string): Status {
  if (s.plugin === plugin) return s;
  if (s.plugin === undefined && !Object.isFrozen(s)) {
    s.plugin = plugin;
    return s;
  }
  return { ...s, plugin };
}
