// PodTopologySpreadArgs (v1 KubeSchedulerConfiguration): defaulting
// (pkg/scheduler/apis/config/v1/defaults.go) and validation
// (pkg/scheduler/apis/config/validation/validation_pluginargs.go, v1.32).
import { fieldErr, type FieldError, type FieldPath } from '../../../apimachinery/fieldErrors';
import { isQualifiedName } from '../../../apimachinery/validation/names';
import type { TopologySpreadConstraint } from '../../framework/api';
import { LABEL_HOSTNAME, LABEL_TOPOLOGY_ZONE } from './common';

/** System: the built-in defaults below; List: args.defaultConstraints. */
export type PodTopologySpreadConstraintsDefaulting = 'System' | 'List';

export interface PodTopologySpreadArgs {
  /** Constraints for pods that have none; labelSelector must be empty (it is deduced per pod). */
  defaultConstraints?: TopologySpreadConstraint[];
  defaultingType: PodTopologySpreadConstraintsDefaulting;
}

/** systemDefaultConstraints (plugin.go). */
export const SYSTEM_DEFAULT_CONSTRAINTS: readonly TopologySpreadConstraint[] = Object.freeze([
  { topologyKey: LABEL_HOSTNAME, whenUnsatisfiable: 'ScheduleAnyway', maxSkew: 3 },
  { topologyKey: LABEL_TOPOLOGY_ZONE, whenUnsatisfiable: 'ScheduleAnyway', maxSkew: 5 },
] as TopologySpreadConstraint[]);

/** SetDefaults_PodTopologySpreadArgs: defaultingType defaults to System. */
export function defaultPodTopologySpreadArgs(args: Partial<PodTopologySpreadArgs> | undefined): PodTopologySpreadArgs {
  return {
    ...(args?.defaultConstraints ? { defaultConstraints: args.defaultConstraints } : {}),
    defaultingType: args?.defaultingType || 'System',
  };
}

/** metav1validation.ValidateLabelName: one error per message of IsQualifiedName. */
function validateLabelName(name: string, path: FieldPath): FieldError[] {
  return isQualifiedName(name).map((msg) => fieldErr.invalid(path, name, msg));
}

function validateDefaultingType(p: FieldPath, v: string, constraints: readonly TopologySpreadConstraint[]): FieldError | undefined {
  if (v !== 'System' && v !== 'List') return fieldErr.notSupported(p, v, ['System', 'List']);
  if (v === 'System' && constraints.length > 0) return fieldErr.invalid(p, v, 'when .defaultConstraints are not empty');
  return undefined;
}

function validateTopologyKey(p: FieldPath, v: string): FieldError[] {
  if (v.length === 0) return [fieldErr.required(p, 'can not be empty')];
  return validateLabelName(v, p);
}

function validateWhenUnsatisfiable(p: FieldPath, v: string | undefined): FieldError | undefined {
  if (!v) return fieldErr.required(p, 'can not be empty');
  // sets.List: sorted.
  if (v !== 'DoNotSchedule' && v !== 'ScheduleAnyway') return fieldErr.notSupported(p, v, ['DoNotSchedule', 'ScheduleAnyway']);
  return undefined;
}

function validateConstraintNotRepeat(path: FieldPath, constraints: readonly TopologySpreadConstraint[], idx: number): FieldError | undefined {
  const c = constraints[idx]!;
  for (let i = 0; i < idx; i++) {
    const other = constraints[i]!;
    if (c.topologyKey === other.topologyKey && c.whenUnsatisfiable === other.whenUnsatisfiable) {
      return fieldErr.duplicate(path.index(idx), `{${c.topologyKey}, ${c.whenUnsatisfiable}}`);
    }
  }
  return undefined;
}

/** ValidatePodTopologySpreadArgs */
export function validatePodTopologySpreadArgs(args: PodTopologySpreadArgs, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const constraints = args.defaultConstraints ?? [];
  const dt = validateDefaultingType(path.child('defaultingType'), args.defaultingType, constraints);
  if (dt) errs.push(dt);
  const cp = path.child('defaultConstraints');
  constraints.forEach((c, i) => {
    const p = cp.index(i);
    const maxSkew = c.maxSkew ?? 0;
    if (maxSkew <= 0) errs.push(fieldErr.invalid(p.child('maxSkew'), maxSkew, 'not in valid range (0, inf)'));
    errs.push(...validateTopologyKey(p.child('topologyKey'), c.topologyKey ?? ''));
    const wu = validateWhenUnsatisfiable(p.child('whenUnsatisfiable'), c.whenUnsatisfiable);
    if (wu) errs.push(wu);
    if (c.labelSelector !== undefined && c.labelSelector !== null) {
      errs.push(fieldErr.forbidden(p.child('labelSelector'), 'constraint must not define a selector, as they deduced for each pod'));
    }
    const dup = validateConstraintNotRepeat(cp, constraints, i);
    if (dup) errs.push(dup);
  });
  return errs;
}
