import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { type SelfSigned, selfSignedCertificate } from './tls.js';

// Real HTTPS receivers on 127.0.0.1 for webhook tests: each records every request and answers
// with whatever `answer` decides for it. Their certificate is self-signed and the sender verifies
// it as any other: the app trusts it only through WEBHOOK_CA_FILE (`caFile`), and reaches the
// loopback address only with WEBHOOK_ALLOW_PRIVATE.

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

interface Answer {
  /** Never answer (the attempt's time limit must end it). */
  hang?: boolean;
  status?: number;
  body?: string;
  headers?: Record<string, string>;
}

type Answering = (request: Received, index: number) => Answer;

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

export interface Receivers {
  /** The receivers' certificate: what WEBHOOK_CA_FILE names for the app to trust them. */
  caFile: string;
  /** Starts a receiver presenting this certificate. */
  start(answer?: Answering): Promise<Receiver>;
}

/**
 * The receivers of a test file (or describe block): one self-signed certificate for localhost and
 * 127.0.0.1 (and `names`), made now in a temporary directory that is removed after the block's
 * tests. Another call makes another certificate, which the first one's `caFile` does not trust.
 */
export function useReceivers(options: { names?: string[] } = {}): Receivers {
  const dir = mkdtempSync(join(tmpdir(), 'parley-receiver-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const certificate = selfSignedCertificate(dir, 'receiver', options.names);
  return {
    caFile: certificate.certFile,
    start: (answer) => startReceiver(certificate, answer),
  };
}

async function startReceiver(certificate: SelfSigned, answer: Answering = () => ({ status: 200 })) {
  const received: Received[] = [];
  const server = createServer(
    { cert: certificate.cert, key: readFileSync(certificate.keyFile) },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const request = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
        received.push(request);
        const { hang, status = 200, body, headers } = answer(request, received.length - 1);
        if (hang) return;
        res.writeHead(status, headers);
        res.end(body ?? '');
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}/hook`,
    port,
    /** Requests that got through TLS; a sender that refused the certificate sent none. */
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
