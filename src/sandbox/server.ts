// The one node:http server of a sandbox: listens, tracks sockets, and closes without waiting on keep-alive.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface ListeningServer {
  /** Exposed so later mounts (WebSocket upgrades on /app/{key}) can attach to the same port. */
  server: Server;
  port: number;
  /** Stops listening, destroys open sockets, resolves once closed. */
  close(): Promise<void>;
}

export type RootHandler = (req: IncomingMessage, res: ServerResponse) => void;

export function listen(handler: RootHandler, host: string, port: number): Promise<ListeningServer> {
  const server = createServer(handler);
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address();
      if (address === null || typeof address === 'string') {
        reject(new Error('The sandbox server has no TCP address.'));
        return;
      }
      resolve({
        server,
        port: address.port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            for (const socket of sockets) socket.destroy();
          }),
      });
    });
  });
}
