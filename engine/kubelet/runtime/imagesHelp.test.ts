import { describe, expect, it } from 'vitest';
import { catalog, parseImage, resolveImage } from './images';
import { IMAGES_HELP } from './imagesHelp';

/** How the help names a catalog repository: docker.io/library/ and docker.io/ dropped. */
const shortName = (repo: string) => repo.replace(/^docker\.io\/library\//, '').replace(/^docker\.io\//, '');

describe('help images', () => {
  const text = IMAGES_HELP.join('\n');

  it('names every image of the catalog but the pause image', () => {
    for (const img of catalog()) {
      if (img.repo === 'registry.k8s.io/pause') continue;
      expect(text, img.repo).toMatch(new RegExp(`(^|[\\s,(])${shortName(img.repo).replace(/[.\/]/g, '\\$&')}([\\s,:]|$)`, 'm'));
    }
  });

  it('names only images that pull, with the tags it gives', () => {
    const named = [...text.matchAll(/(?:^|\s)((?:registry\.k8s\.io|gcr\.io|kubeglass|vish|polinux|curlimages|hashicorp|traefik|nginxinc)\/[a-z0-9./-]+(?::[a-z0-9.]+)?|nginx|httpd|redis|busybox|alpine|ubuntu|debian|postgres|mysql|mariadb|mongo|memcached|rabbitmq(?::management)?|python|node)(?=[\s,]|$)/gm)].map((m) => m[1]!);
    expect(named.length).toBeGreaterThanOrEqual(catalog().length - 1);
    for (const name of named) expect(resolveImage(parseImage(name)).ok, name).toBe(true);
  });

  it('fits a 110-column terminal', () => {
    for (const line of IMAGES_HELP) expect(line.length, line).toBeLessThanOrEqual(110);
  });
});
