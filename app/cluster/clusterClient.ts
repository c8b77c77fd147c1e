// The Cluster view's reads, through the engine worker.
import { workerApi } from '../engineClient';
import { ClusterPoller, type ClusterSource } from './clusterStore';

export const workerClusterSource: ClusterSource = {
  cluster: async () => (await workerApi()).clusterView(),
  controllers: async () => (await workerApi()).controllersView(),
};

export const clusterPoller = new ClusterPoller(workerClusterSource);
