// The modular controllers kube-controller-manager runs (besides the built-in
// serviceaccount, root-ca-cert-publisher and namespace controllers of
// manager.ts), as upstream's NewControllerDescriptors lists them.
import type { Controller } from './framework/types';
import { NodeLifecycleController } from './nodelifecycle/controller';
import { TaintEvictionController } from './tainteviction/controller';
import { GarbageCollector } from './garbagecollector/controller';
import { ReplicaSetController, ReplicationManager } from './replicaset/controller';
import { DeploymentController } from './deployment/controller';
import { EndpointSliceController } from './endpointslice/controller';
import { EndpointController } from './endpoint/controller';
import { JobController } from './job/controller';
import { StatefulSetController } from './statefulset/controller';
import { DaemonSetsController } from './daemon/controller';
import { CronJobController } from './cronjob/controller';
import { TTLAfterFinishedController } from './ttlafterfinished/controller';
import { TokensController } from './serviceaccount/tokens';
import { PersistentVolumeController } from './volume/persistentvolume/controller';
import { PVCProtectionController } from './volume/pvcprotection/controller';
import { PVProtectionController } from './volume/pvprotection/controller';
import { HorizontalPodAutoscalerController } from './podautoscaler/controller';
import { DisruptionController } from './disruption/controller';
import { ResourceQuotaController } from './resourcequota/controller';

/** Each entry builds one controller (its state lives in the instance). */
export const CONTROLLER_FACTORIES: readonly (() => Controller)[] = [
  () => new NodeLifecycleController(),
  () => new TaintEvictionController(),
  () => new GarbageCollector(),
  () => new ReplicaSetController(),
  () => new ReplicationManager(),
  () => new DeploymentController(),
  () => new EndpointSliceController(),
  () => new EndpointController(),
  () => new JobController(),
  () => new StatefulSetController(),
  () => new DaemonSetsController(),
  () => new CronJobController(),
  () => new TTLAfterFinishedController(),
  () => new TokensController(),
  () => new PersistentVolumeController(),
  () => new PVCProtectionController(),
  () => new PVProtectionController(),
  () => new HorizontalPodAutoscalerController(),
  () => new DisruptionController(),
  () => new ResourceQuotaController(),
];
