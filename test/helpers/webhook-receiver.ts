import { type IncomingHttpHeaders, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

// A real HTTP receiver on 127.0.0.1 for webhook tests: it records every request and answers with
// whatever `answer` decides for it.

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Answer {
  /** Never answer (the attempt's time limit must end it). */
  hang?: boolean;
  status?: number;
  body?: string;
  headers?: Record<string, string>;
}

export async function startReceiver(
  answer: (request: Received, index: number) => Answer = () => ({ status: 200 }),
) {
  const received: Received[] = [];
  const server = createServer((req, res) => {
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
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Polls `check` until it returns true (deliveries are asynchronous); never asserts timings. */
export async function until(check: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
