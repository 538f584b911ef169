// Routes each request by path prefix to a mounted handler (/api, /oauth, /interaction...), logging it first; WebSocket
// upgrades go the same way to the realtime endpoint.
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { sendJson, serverFault } from './http/responses.js';

export interface RequestTarget {
  /** Path without the query string, not decoded. */
  path: string;
  query: URLSearchParams;
  /** The query string as sent, without '?'. */
  rawQuery: string;
}

export type MountHandler = (req: IncomingMessage, res: ServerResponse, target: RequestTarget) => unknown;

export interface Mount {
  /** '/api' matches '/api' and '/api/...', never '/apix'. */
  prefix: string;
  handle: MountHandler;
}

export interface RequestLogEntry {
  method: string;
  path: string;
  query: string;
  headers: IncomingHttpHeaders;
}

export function parseTarget(url: string | undefined): RequestTarget {
  const raw = url ?? '/';
  const queryStart = raw.indexOf('?');
  const path = queryStart === -1 ? raw : raw.slice(0, queryStart);
  const rawQuery = queryStart === -1 ? '' : raw.slice(queryStart + 1);
  return { path, query: new URLSearchParams(rawQuery), rawQuery };
}

/** The log keeps the newest entries only, so a sandbox left running for days does not grow without bound. */
export const REQUEST_LOG_LIMIT = 20_000;

function logRequest(log: RequestLogEntry[], req: IncomingMessage, target: RequestTarget): void {
  if (log.length >= REQUEST_LOG_LIMIT) log.splice(0, REQUEST_LOG_LIMIT / 2);
  log.push({
    method: req.method ?? 'GET',
    path: target.path,
    query: target.rawQuery,
    headers: { ...req.headers },
  });
}

export function createDispatcher(mounts: readonly Mount[], log: RequestLogEntry[]) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const target = parseTarget(req.url);
    logRequest(log, req, target);
    const mount = mounts.find((m) => target.path === m.prefix || target.path.startsWith(`${m.prefix}/`));
    if (mount === undefined) {
      sendJson(res, { status: 404, body: { message: 'Not Found.' } });
      return;
    }
    // The server must outlive any handler bug: answer 500 if possible, else drop the connection.
    Promise.resolve()
      .then(() => mount.handle(req, res, target))
      .catch(() => {
        if (res.headersSent) res.destroy();
        else sendJson(res, serverFault());
      });
  };
}

export type UpgradeHandler = (
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  target: RequestTarget,
) => void;

/** For the server's `upgrade` event: logged like any request, then handed to the realtime endpoint. */
export function createUpgradeDispatcher(handle: UpgradeHandler, log: RequestLogEntry[]) {
  return (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const target = parseTarget(req.url);
    logRequest(log, req, target);
    try {
      handle(req, socket, head, target);
    } catch {
      // Same rule as for requests: a bug costs this connection, never the server.
      socket.destroy();
    }
  };
}
