// Preloaded with `node --import`: writes every module URL the process loads (ES modules as they resolve, CommonJS
// files from the require cache) to $RECORD_IMPORTS_FILE at exit.
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { pathToFileURL } from 'node:url';

const file = process.env.RECORD_IMPORTS_FILE;
if (file) {
  const { port1, port2 } = new MessageChannel();
  const seen = [];
  port1.on('message', (url) => seen.push(url));
  port1.unref();
  register(
    'data:text/javascript,' +
      encodeURIComponent(
        'let port; export function initialize(data) { port = data.port; }' +
          'export async function resolve(s, c, next) { const r = await next(s, c); port.postMessage(r.url); return r; }',
      ),
    { data: { port: port2 }, transferList: [port2] },
  );
  const require = createRequire(import.meta.url);
  process.on('exit', () => {
    const required = Object.keys(require.cache).map((path) => pathToFileURL(path).href);
    appendFileSync(file, `${[...seen, ...required].join('\n')}\n`);
  });
}
