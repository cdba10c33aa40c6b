import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// Self-signed certificates for tests of HTTPS (D60) and of webhook receivers (D69), made with the
// openssl command line.

export interface SelfSigned {
  certFile: string;
  keyFile: string;
  /** The certificate's PEM text: what a client trusts (`ca`, NODE_EXTRA_CA_CERTS). */
  cert: string;
  /** SHA-256 fingerprint, as a TLS socket's getPeerCertificate().fingerprint256 shows it. */
  fingerprint256: string;
}

/**
 * Writes `<name>.crt` and `<name>.key` in `dir`: a P-256 key and a one-day certificate for
 * localhost and 127.0.0.1 (and the host names in `moreNames`), as the README's openssl command
 * makes (with a longer life).
 */
export function selfSignedCertificate(dir: string, name = 'parley', moreNames: string[] = []): SelfSigned {
  const certFile = join(dir, `${name}.crt`);
  const keyFile = join(dir, `${name}.key`);
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      `subjectAltName=${['DNS:localhost', 'IP:127.0.0.1', ...moreNames.map((host) => `DNS:${host}`)].join(',')}`,
    ],
    { stdio: 'pipe' },
  );
  const cert = readFileSync(certFile, 'utf8');
  return { certFile, keyFile, cert, fingerprint256: new X509Certificate(cert).fingerprint256 };
}
