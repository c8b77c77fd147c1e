// Who exists in a scenario: the cluster admin (kubeadm's kubernetes-admin in
// system:masters), the components' certificate identities, and the users the
// scenario declares (by default alice and bob, with no permissions until a
// Role grants them some — as on a fresh cluster).
import type { ScenarioUser } from '../../facade/types';
import { componentUsers, defaultAuthnConfig, type AuthnConfig, type StaticUser } from '../auth/authn';

/** The admin's bearer token in the kubeconfig `npm run serve` writes. */
export const ADMIN_TOKEN = 'kubeglass-admin-token';

export const DEFAULT_USERS: ScenarioUser[] = [
  { name: 'alice', token: 'alice-token', certificate: true },
  { name: 'bob', groups: ['developers'], token: 'bob-token', certificate: true },
];

export function staticUsers(users: readonly ScenarioUser[]): StaticUser[] {
  const declared = users.length > 0 ? users : DEFAULT_USERS;
  const admin = componentUsers().map((u) => (u.name === 'kubernetes-admin' ? { ...u, token: ADMIN_TOKEN } : u));
  return [
    ...admin,
    ...declared.map((u) => {
      const s: StaticUser = { name: u.name, groups: u.groups ?? [] };
      if (u.token) s.token = u.token;
      if (u.certificate) s.certCN = u.name;
      return s;
    }),
  ];
}

export function authnConfigFor(users: readonly ScenarioUser[] | undefined, seed = 'kubeglass'): AuthnConfig {
  return defaultAuthnConfig(seed, staticUsers(users ?? []));
}
