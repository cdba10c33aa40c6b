import { once } from 'node:events';
import { type Socket, connect, createServer } from 'node:net';

// A TCP proxy that can cut the network: while cut, it carries nothing either way and leaves new
// connections unanswered, as a dropped link or a partition does (the database neither answers
// nor closes anything). Restored, it delivers what it held, in order, as TCP would retransmit it.

export interface TcpProxy {
  port: number;
  /** `url` with its host and port replaced by the proxy's. */
  urlThrough(url: string): string;
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let isCut = false;
  let held: (() => void)[] = [];
  const sockets = new Set<Socket>();
  const deliver = (action: () => void) => {
    if (isCut) held.push(action);
    else action();
  };
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
  };

  const server = createServer((client) => {
    track(client);
    let upstream: Socket | undefined;
    deliver(() => {
      upstream = connect(target.port, target.host);
      track(upstream);
      upstream.on('data', (chunk) => deliver(() => client.write(chunk)));
      upstream.on('close', () => deliver(() => client.destroy()));
    });
    client.on('data', (chunk) => deliver(() => upstream?.write(chunk)));
    client.on('close', () => deliver(() => upstream?.destroy()));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };

  return {
    port,
    urlThrough(url) {
      const parsed = new URL(url);
      parsed.hostname = '127.0.0.1';
      parsed.port = String(port);
      return parsed.toString();
    },
    cut() {
      isCut = true;
    },
    restore() {
      isCut = false;
      const actions = held;
      held = [];
      for (const action of actions) action();
    },
    async close() {
      isCut = false;
      held = [];
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}
