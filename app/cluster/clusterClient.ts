// The Cluster view's reads, through the engine worker.
import { workerApi } from '../engineClient';
import { ClusterPoller, type ClusterSource } from './clusterStore';

export const workerClusterSource: ClusterSource = {
  map: async (epoch, seq) => (await workerApi()).clusterMap(epoch, seq),
  controllers: async () => (await workerApi()).controllersView(),
};

export const clusterPoller = new ClusterPoller(workerClusterSource);
