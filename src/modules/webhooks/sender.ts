import http from 'node:http';
import https from 'node:https';
import { createSecureContext } from 'node:tls';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import { Webhook } from 'standardwebhooks';
import { withDefaultRoots } from './trusted-ca.js';
import type { HostLookup } from './url-safety.js';

// D68, D69: one delivery attempt. A POST of the event JSON signed per Standard Webhooks; the
// address the connection resolves to is checked again (request-filtering-agent refuses private,
// loopback, link-local and metadata addresses unless WEBHOOK_ALLOW_PRIVATE), redirects are not
// followed (node's http client never follows one: a 3xx is an answer, and not a 2xx), the answer
// is read up to 64 KiB and kept up to 1 KiB, and the whole attempt has a time limit. The
// receiver's certificate is always verified: against Node's default roots, plus WEBHOOK_CA_FILE's.

/** D69: how much of an answer is read, and how much of it is kept in the delivery log. */
const READ_LIMIT_BYTES = 64 * 1024;
const KEEP_LIMIT_BYTES = 1024;

export interface SenderOptions {
  allowPrivate: boolean;
  timeoutMs: number;
  lookup?: HostLookup;
  /** WEBHOOK_CA_FILE's certificates (PEM), trusted besides Node's default roots. */
  trustedCa?: string;
}

export interface SendRequest {
  url: string;
  /** The event id: `webhook-id`, the same on every retry (D68). */
  eventId: string;
  body: string;
  /** The current secret, and during a rotation the previous one (D68: both sign for 24 h). */
  secrets: string[];
  /** Ends the attempt at once (shutdown). */
  signal?: AbortSignal;
}

export interface SendResult {
  ok: boolean;
  responseStatus: number | null;
  /** The first 1 KiB of the answer's body. */
  responseBody: string | null;
  durationMs: number;
  error: string | null;
}

/** D68: `v1,<sig>` of every secret, space-separated, as Standard Webhooks lists several. */
function signatureHeaders(
  eventId: string,
  body: string,
  secrets: string[],
  at: Date,
): Record<string, string> {
  return {
    'webhook-id': eventId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(eventId, at, body)).join(' '),
  };
}

/**
 * A failed attempt's `error` in the delivery log: node's message, with its code when the message
 * does not carry it (a certificate problem: `self-signed certificate (DEPTH_ZERO_SELF_SIGNED_CERT)`).
 */
function describeError(error: NodeJS.ErrnoException): string {
  const { code, message } = error;
  return typeof code === 'string' && !message.includes(code) ? `${message} (${code})` : message;
}

export function createSender(options: SenderOptions) {
  const filter = {
    allowPrivateIPAddress: options.allowPrivate,
    allowMetaIPAddress: options.allowPrivate,
    // One connection per attempt: a kept-alive socket would skip the check of a new resolution.
    keepAlive: false,
  };
  const agents = {
    http: new RequestFilteringHttpAgent(filter),
    https: new RequestFilteringHttpsAgent({
      ...filter,
      // WEBHOOK_CA_FILE's authorities besides the default roots, in one context made once for
      // every attempt (making it parses the ~150 roots). Verification itself is never turned off.
      ...(options.trustedCa === undefined
        ? {}
        : { secureContext: createSecureContext({ ca: withDefaultRoots(options.trustedCa) }) }),
    }),
  };

  return {
    send(request: SendRequest): Promise<SendResult> {
      const started = performance.now();
      const elapsed = () => Math.round(performance.now() - started);
      return new Promise<SendResult>((resolve) => {
        let settled = false;
        const abort = () => req.destroy(new Error('aborted'));
        const finish = (result: Omit<SendResult, 'durationMs'>) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          request.signal?.removeEventListener('abort', abort);
          resolve({ ...result, durationMs: elapsed() });
        };
        const fail = (error: string, responseStatus: number | null = null) =>
          finish({ ok: false, responseStatus, responseBody: null, error });

        let url: URL;
        try {
          url = new URL(request.url);
        } catch {
          fail('invalid URL');
          return;
        }
        const secure = url.protocol === 'https:';
        if (!secure && !(options.allowPrivate && url.protocol === 'http:')) {
          fail('the URL must be https://');
          return;
        }
        const client = secure ? https : http;
        const req = client.request(url, {
          method: 'POST',
          agent: secure ? agents.https : agents.http,
          ...(options.lookup ? { lookup: options.lookup } : {}),
          headers: {
            'content-type': 'application/json',
            'user-agent': 'Parley-Webhooks',
            ...signatureHeaders(request.eventId, request.body, request.secrets, new Date()),
          },
        });
        const timer = setTimeout(() => {
          req.destroy(new Error(`no answer within ${options.timeoutMs} ms`));
        }, options.timeoutMs);
        req.on('error', (error) => fail(describeError(error)));
        request.signal?.addEventListener('abort', abort, { once: true });
        req.on('response', (res) => {
          const status = res.statusCode ?? 0;
          const chunks: Buffer[] = [];
          let read = 0;
          const done = () => {
            const kept = Buffer.concat(chunks).subarray(0, KEEP_LIMIT_BYTES).toString('utf8');
            const ok = status >= 200 && status < 300;
            finish({
              ok,
              responseStatus: status,
              responseBody: kept,
              error: ok ? null : `answered ${status}`,
            });
            res.destroy();
          };
          res.on('data', (chunk: Buffer) => {
            if (read >= READ_LIMIT_BYTES) return;
            chunks.push(chunk.subarray(0, READ_LIMIT_BYTES - read));
            read += chunk.length;
            // D69: what lies beyond 64 KiB is not read.
            if (read >= READ_LIMIT_BYTES) done();
          });
          res.on('end', done);
          res.on('error', (error) => fail(describeError(error), status));
        });
        req.end(request.body);
      });
    },
    close() {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}

export type Sender = ReturnType<typeof createSender>;
