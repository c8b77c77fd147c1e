// A kubeconfig for the headless cluster: the admin (kubernetes-admin in
// system:masters, by bearer token) as the current context, plus one context
// per scenario user who has a token.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ADMIN_TOKEN, DEFAULT_USERS } from '../../engine/apiserver/server/scenario';
import type { ScenarioUser } from '../../engine/facade/types';

export const CLUSTER_NAME = 'kubeglass';

export function kubeconfigYaml(serverUrl: string, users: readonly ScenarioUser[] = DEFAULT_USERS, caPem?: string): string {
  const people = [{ name: 'kubernetes-admin', token: ADMIN_TOKEN }, ...users.filter((u) => u.token).map((u) => ({ name: u.name, token: u.token! }))];
  const ctxName = (u: string) => `${u}@${CLUSTER_NAME}`;
  const lines = [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- cluster:',
    ...(caPem ? [`    certificate-authority-data: ${Buffer.from(caPem).toString('base64')}`] : []),
    `    server: ${serverUrl}`,
    `  name: ${CLUSTER_NAME}`,
    'contexts:',
    ...people.flatMap((p) => ['- context:', `    cluster: ${CLUSTER_NAME}`, `    user: ${p.name}`, `  name: ${ctxName(p.name)}`]),
    `current-context: ${ctxName('kubernetes-admin')}`,
    'preferences: {}',
    'users:',
    ...people.flatMap((p) => [`- name: ${p.name}`, '  user:', `    token: ${p.token}`]),
    '',
  ];
  return lines.join('\n');
}

export function writeKubeconfig(path: string, serverUrl: string, users?: readonly ScenarioUser[], caPem?: string): string {
  const abs = resolve(path);
  writeFileSync(abs, kubeconfigYaml(serverUrl, users, caPem), { mode: 0o600 });
  return abs;
}
