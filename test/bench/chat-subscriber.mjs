// The chat tail baseline: a minimal subscriber speaking the Pusher protocol over `ws`. It connects, asks the auth
// endpoint for the private channel's signature, subscribes, and prints each event's data as one NDJSON line
// ({"data":{...}}), nothing else: what any client must do at the least. Reads its target from the environment.
import WebSocket from 'ws';

const { BASE_URL, TOKEN, TENANT, REALTIME_HOST, REALTIME_PORT, REALTIME_KEY } = process.env;
const channel = `private-chat-log.${TENANT}`;
const socket = new WebSocket(`ws://${REALTIME_HOST}:${REALTIME_PORT}/app/${REALTIME_KEY}?protocol=7`);

async function signature(socketId) {
  const answer = await fetch(`${BASE_URL.replace(/\/+$/, '')}/broadcasting/auth`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${TOKEN}`,
      'x-tenant': TENANT,
      accept: 'application/json',
      'content-type': 'application/json',
    },
    body: JSON.stringify({ socket_id: socketId, channel_name: channel }),
  });
  if (!answer.ok) throw new Error(`auth: HTTP ${answer.status}`);
  return (await answer.json()).auth;
}

socket.on('message', async (raw) => {
  const frame = JSON.parse(raw.toString());
  if (frame.event === 'pusher:connection_established') {
    const { socket_id } = JSON.parse(frame.data);
    const auth = await signature(socket_id);
    socket.send(JSON.stringify({ event: 'pusher:subscribe', data: { channel, auth } }));
  } else if (frame.event === 'pusher_internal:subscription_succeeded') {
    process.stderr.write('subscribed\n');
  } else if (frame.event === 'pusher:ping') {
    socket.send(JSON.stringify({ event: 'pusher:pong', data: {} }));
  } else if (frame.channel === channel) {
    process.stdout.write(`${JSON.stringify({ event: frame.event, data: JSON.parse(frame.data) })}\n`);
  }
});
socket.on('close', () => process.exit(0));
socket.on('error', (error) => {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
});
