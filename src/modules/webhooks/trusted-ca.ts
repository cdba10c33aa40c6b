import { X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { rootCertificates } from 'node:tls';
import { type Config, ConfigError } from '../../config.js';

// D69: WEBHOOK_CA_FILE names the certificate authorities of receivers inside a company (a private
// CA), trusted for webhook deliveries besides Node's default roots: sender.ts adds them to the
// roots, never puts them in their place.

/**
 * What the sender's TLS context trusts with WEBHOOK_CA_FILE set: Node's default roots and the
 * file's certificates. A `ca` option replaces the default roots, so they are listed again.
 */
export function withDefaultRoots(trustedCa: string): string[] {
  return [...rootCertificates, trustedCa];
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

function parses(pem: string): boolean {
  try {
    return new X509Certificate(pem).subject !== undefined;
  } catch {
    return false;
  }
}

/**
 * The certificates of WEBHOOK_CA_FILE as PEM text, or undefined when it is unset. Read once at
 * start (server.ts, `parley worker`), before the database: a file that cannot be read, or that
 * holds no certificate or one that does not parse, is a ConfigError (exit code 2), as an
 * unreadable TLS_CERT_FILE is. Anything else in the file (a private key, comments) is left out.
 */
export async function readWebhookCaFile(
  config: Pick<Config, 'WEBHOOK_CA_FILE'>,
): Promise<string | undefined> {
  const path = config.WEBHOOK_CA_FILE;
  if (path === undefined) return undefined;
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    throw new ConfigError([`WEBHOOK_CA_FILE: cannot read ${path} (${code ?? message})`]);
  }
  const certificates = text.match(PEM_CERTIFICATE) ?? [];
  if (certificates.length === 0) {
    throw new ConfigError([`WEBHOOK_CA_FILE: ${path} holds no PEM certificate`]);
  }
  const broken = certificates.flatMap((pem, index) => (parses(pem) ? [] : [index + 1]));
  if (broken.length > 0) {
    throw new ConfigError([
      `WEBHOOK_CA_FILE: certificate ${broken.join(', ')} of ${certificates.length} in ${path} does not parse`,
    ]);
  }
  return `${certificates.join('\n')}\n`;
}
