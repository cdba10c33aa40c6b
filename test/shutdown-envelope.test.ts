import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, createTestContext } from './helpers/app.js';
import { eventually } from './helpers/eventually.js';

// D11: once the listener has closed, a request still arriving on an open connection
// gets 503 SERVICE_UNAVAILABLE in the error envelope (with Connection: close), while the request
// in flight before it finishes normally.

describe('requests after the listener closed', () => {
  it('finish the one in flight and answer the next one on the same connection with the 503 envelope', async () => {
    const context = await createTestContext();
    await context.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = context.app.server.address() as { port: number };

    const socket = connect(port, '127.0.0.1');
    let received = '';
    let reached: () => void;
    // The request asks for 100 Continue, which Node's server sends as it hands the request to the app.
    const requestReached = new Promise<void>((resolve) => {
      reached = resolve;
    });
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('utf8');
      if (received.includes('HTTP/1.1 100 Continue')) reached();
    });
    const ended = new Promise((resolve) => socket.on('close', resolve));

    const body = JSON.stringify({ name: 'in-flight-at-close' });
    const half = Math.floor(body.length / 2);
    socket.write(
      `POST /admin/v1/projects HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
        `Authorization: Bearer ${ADMIN_TOKEN}\r\nContent-Type: application/json\r\nExpect: 100-continue\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, half)}`,
    );
    await requestReached;

    const closed = context.app.close();
    // preClose hooks run as close() begins.
    await eventually(() => context.app.lifecycle.closing, { what: 'the preClose hooks' });
    // The rest of the first request, and a second one pipelined behind it on the same connection.
    socket.write(
      `${body.slice(half)}GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Request-Id: after-close\r\n\r\n`,
    );
    await ended;
    await closed;
    await context.database.close();

    const responses = received.split(/(?=HTTP\/1\.1 )/).filter((text) => !text.startsWith('HTTP/1.1 100 '));
    expect(responses).toHaveLength(2);
    expect(responses[0]).toMatch(/^HTTP\/1\.1 201 /);
    expect(responses[1]).toMatch(/^HTTP\/1\.1 503 /);
    expect(responses[1]).toMatch(/\r\nconnection: close\r\n/i);
    expect(responses[1]).toMatch(/\r\nretry-after: 1\r\n/i);
    const envelope = JSON.parse(responses[1]!.split('\r\n\r\n')[1]!) as { error: Record<string, unknown> };
    expect(envelope.error).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      type: 'service_unavailable',
      requestId: 'after-close',
    });
  });
});
