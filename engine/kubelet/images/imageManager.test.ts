// EnsureImageExists' first step (images/image_manager.go applyDefaultImageTag): an image name that does not
// parse as a reference is InvalidImageName, with an InspectFailed event, and nothing is pulled.
import { describe, expect, it } from 'vitest';
import { runUntil } from '../../scheduler/testing/cluster';
import { createPod, kubeletEvents, podOf, statusOf, withNode } from '../testing';
import { invalidImageReference } from './imageManager';

describe('image references', () => {
  it('parse as distribution/reference parses them', () => {
    for (const ok of ['nginx', 'nginx:1.27', 'library/nginx:1.27', 'registry.k8s.io/pause:3.10', 'localhost:5000/app:v1', 'Registry.Example.com/app', `busybox@sha256:${'a'.repeat(64)}`])
      expect(invalidImageReference(ok)).toBeNull();
    expect(invalidImageReference('NGINX:1.27')).toBe('invalid reference format: repository name (library/NGINX) must be lowercase');
    expect(invalidImageReference('nginx:1.27 ')).toBe('invalid reference format');
    expect(invalidImageReference('nginx::1.27')).toBe('invalid reference format');
    expect(invalidImageReference('a'.repeat(64))).toBe(`invalid repository name (${'a'.repeat(64)}), cannot specify 64-byte hexadecimal strings`);
  });

  it('a pod whose image does not parse waits in InvalidImageName and pulls nothing', { timeout: 60_000 }, () => {
    const e = withNode(81);
    createPod(e, podOf('caps', [{ name: 'web', image: 'Nginx:1.27' }]));
    runUntil(e, () => statusOf(e, 'caps')?.containerStatuses?.[0]?.state?.waiting?.reason === 'InvalidImageName', 'InvalidImageName', 30_000, 200);
    const message = 'Failed to apply default image tag "Nginx:1.27": couldn\'t parse image name "Nginx:1.27": invalid reference format: repository name (library/Nginx) must be lowercase';
    expect(statusOf(e, 'caps').containerStatuses[0].state.waiting.message).toBe(message);
    const evs = kubeletEvents(e, 'caps');
    expect(evs).toContain(`InspectFailed: ${message}`);
    expect(evs).toContain('Failed: Error: InvalidImageName');
    expect(evs.some((x) => x.startsWith('Pulling'))).toBe(false);
  });
});
