// A helpdesk's webhook endpoint for `chat tail --forward-to` tests: on 127.0.0.1, it verifies each Clinic-Signature
// as a receiver must (HMAC-SHA256 of "<t>.<body>" with the secret), answers as the test says (503 while "down"),
// and keeps every POST, so tests count what was delivered, in which order, and what came twice.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  eventId: string;
  /** The parsed body: the NDJSON object of the event. */
  body: { event: string; source: string; data: Record<string, unknown> };
  /** The signature verified with the receiver's secret. */
  verified: boolean;
  /** The answer given. */
  status: number;
  headers: IncomingHttpHeaders;
}

export interface WebhookReceiver {
  url: string;
  /** Every POST, in arrival order, whatever was answered. */
  readonly posts: Received[];
  /** The events answered 2xx, in order. */
  accepted(): Received[];
  /** Event ids accepted more than once. */
  duplicates(): string[];
  /** The secret the signatures are checked with (it may be learned after the start, from the tail's stderr). */
  secret: string;
  /** While set, every POST gets this status (503: down); undefined: 204. */
  answer: number | undefined;
  close(): Promise<void>;
}

export async function startWebhookReceiver(secret = ''): Promise<WebhookReceiver> {
  const posts: Received[] = [];
  const receiver: WebhookReceiver = {
    url: '',
    posts,
    accepted: () => posts.filter((post) => post.status >= 200 && post.status < 300),
    duplicates() {
      const seen = new Set<string>();
      const twice = new Set<string>();
      for (const { eventId } of receiver.accepted()) (seen.has(eventId) ? twice : seen).add(eventId);
      return [...twice];
    },
    secret,
    answer: undefined,
    close: async () => undefined,
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const status = receiver.answer ?? 204;
      posts.push({
        eventId: String(req.headers['clinic-event-id']),
        body: JSON.parse(text) as Received['body'],
        verified: verify(receiver.secret, String(req.headers['clinic-signature']), text),
        status,
        headers: req.headers,
      });
      res.writeHead(status);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/clinic`;
  receiver.close = async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return receiver;
}

/** What docs/chat-tail.md tells a receiver to do. */
export function verify(secret: string, header: string, body: string): boolean {
  const fields = Object.fromEntries(header.split(',').map((part) => part.split('=', 2) as [string, string]));
  if (!fields.t || !fields.v1) return false;
  const expected = createHmac('sha256', secret).update(`${fields.t}.${body}`).digest();
  const given = Buffer.from(fields.v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
