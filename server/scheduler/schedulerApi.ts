// The scheduler's playground endpoints:
//   GET /playground/v1/scheduler/decisions?pod=NAMESPACE/NAME  every decision still held for the pod
//   GET /playground/v1/scheduler/queue                         the active scheduler's queue
//   GET /playground/v1/scheduler/config                        the running KubeSchedulerConfiguration (YAML; JSON with ?format=json or Accept: application/json)
//   PUT /playground/v1/scheduler/config                        replace it (YAML or JSON body); 400 with the reason if invalid
import { parse as parseYaml } from 'yaml';
import type { EngineHost } from '../host';
import type { ControlAnswer } from '../control';

export const SCHEDULER_PATHS = ['/playground/v1/scheduler/decisions', '/playground/v1/scheduler/queue', '/playground/v1/scheduler/config'] as const;

export interface RawAnswer {
  status: number;
  contentType: string;
  text: string;
}

const json = (status: number, body: unknown): RawAnswer => ({ status, contentType: 'application/json', text: JSON.stringify(body) });

export class SchedulerApi {
  constructor(private readonly host: EngineHost) {}

  private noScheduler(): RawAnswer | null {
    return this.host.engine.schedulerView() ? null : json(404, { error: 'no kube-scheduler is running (start the server with the control plane)' });
  }

  decisions(query: URLSearchParams): RawAnswer {
    const pod = query.get('pod');
    if (!pod || !/^[^/\s]+\/[^/\s]+$/.test(pod)) return json(400, { error: 'pod must be given as NAMESPACE/NAME, e.g. ?pod=default/web-1' });
    return this.noScheduler() ?? json(200, this.host.engine.schedulerDecisions(pod));
  }

  queue(): RawAnswer {
    return this.noScheduler() ?? json(200, this.host.engine.schedulerQueue());
  }

  getConfig(query: URLSearchParams, accept: string): RawAnswer {
    const none = this.noScheduler();
    if (none) return none;
    const text = this.host.engine.schedulerConfig() ?? '';
    if (query.get('format') === 'json' || /application\/json/.test(accept)) return json(200, parseYaml(text) as unknown);
    return { status: 200, contentType: 'application/yaml', text };
  }

  putConfig(body: string): RawAnswer {
    const none = this.noScheduler();
    if (none) return none;
    if (body.trim() === '') return json(400, { error: 'the body must be a KubeSchedulerConfiguration (YAML or JSON)' });
    const r = this.host.exec({ type: 'schedulerConfig', text: body });
    if (!r.ok) return json(400, { error: r.error });
    return { status: 200, contentType: 'application/yaml', text: this.host.engine.schedulerConfig() ?? '' };
  }
}

/** For tests and callers that want the control API's shape. */
export function asControl(a: RawAnswer): ControlAnswer {
  return { status: a.status, body: a.contentType === 'application/json' ? (JSON.parse(a.text) as unknown) : a.text };
}
