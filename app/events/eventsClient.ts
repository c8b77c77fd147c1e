// The events stream's reads, through the engine worker.
import { workerApi } from '../engineClient';
import { EventsPoller } from './eventsStore';

export const eventsPoller = new EventsPoller({ events: async (q) => (await workerApi()).events(q) });
