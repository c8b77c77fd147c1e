// A self-signed serving certificate for the Kubernetes API listener: kubectl
// (client-go) sends bearer tokens only over TLS, as it should. The certificate
// is its own CA (basicConstraints CA:TRUE) and names 127.0.0.1 and localhost,
// so a kubeconfig can carry it as certificate-authority-data and verify it.
// Made with the openssl CLI (Node can make keys but not certificates).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ServingCert {
  key: string;
  cert: string;
}

export function makeServingCert(): ServingCert {
  const dir = mkdtempSync(join(tmpdir(), 'kubeglass-tls-'));
  try {
    const cfg = join(dir, 'openssl.cnf');
    writeFileSync(
      cfg,
      [
        '[req]',
        'distinguished_name = dn',
        'x509_extensions = ext',
        'prompt = no',
        '[dn]',
        'CN = kube-apiserver',
        '[ext]',
        'basicConstraints = critical,CA:TRUE',
        'keyUsage = critical,digitalSignature,keyEncipherment,keyCertSign',
        'extendedKeyUsage = serverAuth',
        'subjectAltName = IP:127.0.0.1,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default.svc',
        '',
      ].join('\n'),
    );
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '365', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-config', cfg], { stdio: 'ignore' });
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
