// The export floor: a minimal sequential client with node:http (keep-alive, per_page 100, JSON.parse of each page,
// one JSON.stringify per record), run as its own process like the CLI. `inFlight` pages at a time (default 1).
// Usage: node floor.mjs BASE_URL TOKEN TENANT [IN_FLIGHT]; prints NDJSON to stdout.
import { Agent, request } from 'node:http';

const [base, token, tenant, inFlight = '1'] = process.argv.slice(2);
const agent = new Agent({ keepAlive: true });
const headers = { authorization: `Bearer ${token}`, 'x-tenant': tenant, accept: 'application/json' };

const get = (page) =>
  new Promise((resolve, reject) => {
    const req = request(`${base}/v1/customers?page=${page}&per_page=100`, { agent, headers }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });

const write = (text) =>
  new Promise((resolve) => (process.stdout.write(text) ? resolve() : process.stdout.once('drain', resolve)));

const width = Number(inFlight);
const pending = [];
let next = 1;
let last = Infinity;
for (;;) {
  while (pending.length < width && next <= last) pending.push(get(next++));
  if (pending.length === 0) break;
  const body = await pending.shift();
  last = body.meta.last_page;
  let text = '';
  for (const record of body.data) text += `${JSON.stringify(record)}\n`;
  await write(text);
}
agent.destroy();
