// DefaultBinder (pkg/scheduler/framework/plugins/defaultbinder): binds a pod
// by creating its pods/binding subresource — the API server then sets
// spec.nodeName and the PodScheduled condition.
import { registerClass } from '../../sim/serial';
import type { Pod } from '../framework/api';
import type { CycleState } from '../framework/cycleState';
import type { ApiAction, BindPlugin, Handle, PluginDefinition } from '../framework/interface';

export const DEFAULT_BINDER = 'DefaultBinder';

export class DefaultBinder implements BindPlugin {
  readonly name = DEFAULT_BINDER;

  bind(_state: CycleState, pod: Pod, nodeName: string): ApiAction[] {
    const ns = pod.metadata.namespace ?? 'default';
    return [
      {
        method: 'POST',
        path: `/api/v1/namespaces/${ns}/pods/${pod.metadata.name}/binding`,
        body: { apiVersion: 'v1', kind: 'Binding', metadata: { namespace: ns, name: pod.metadata.name, uid: pod.metadata.uid }, target: { kind: 'Node', name: nodeName } },
        description: `bind pod ${ns}/${pod.metadata.name} to ${nodeName}`,
      },
    ];
  }
}

registerClass('PluginDefaultBinder', DefaultBinder);

export const defaultBinderDefinition: PluginDefinition<undefined> = {
  name: DEFAULT_BINDER,
  factory: (_args: undefined, _h: Handle) => new DefaultBinder(),
};
