// The inspector's reads, through the engine worker.
import { workerApi } from '../engineClient';
import { InspectPoller } from './inspectStore';

export const inspectPoller = new InspectPoller({ inspect: async (ref) => (await workerApi()).inspect(ref) });
