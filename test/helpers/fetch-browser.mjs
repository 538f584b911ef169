// A browser stand-in without a browser: walks the sandbox's sign-in and consent forms with fetch and a cookie jar.
// As a module: `signIn(url, options)` returns the callback address. As a program (BROWSER=node fetch-browser.mjs):
// signs in as $DRIVER_USER (default 1), answers consent with $DRIVER_DECISION (allow|deny) and opens the callback.
import { appendFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export async function signIn(startUrl, { user = '1', decision = 'allow' } = {}) {
  const jar = new Map();
  const step = async (url, init = {}) => {
    const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const response = await fetch(url, { ...init, redirect: 'manual', headers: { ...init.headers, cookie } });
    for (const line of response.headers.getSetCookie()) {
      const pair = line.split(';')[0];
      const at = pair.indexOf('=');
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return response;
  };
  let url = startUrl;
  for (let hop = 0; hop < 20; hop++) {
    if (/^http:\/\/127\.0\.0\.1:\d+\/callback\b/.test(url)) return url;
    const response = await step(url);
    if (response.status >= 300 && response.status < 400) {
      url = new URL(response.headers.get('location'), url).href;
      continue;
    }
    const html = await response.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    const prompt = /name="prompt" value="(\w+)"/.exec(html)?.[1];
    if (!action || !prompt) throw new Error(`unexpected page at ${url}: ${html.slice(0, 200)}`);
    const body = new URLSearchParams(prompt === 'login' ? { prompt, user } : { prompt, decision });
    const posted = await step(new URL(action, url), { method: 'POST', body });
    url = new URL(posted.headers.get('location'), url).href;
  }
  throw new Error('too many hops before the callback');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const callback = await signIn(process.argv[2], {
    user: process.env.DRIVER_USER,
    decision: process.env.DRIVER_DECISION,
  });
  if (process.env.DRIVER_REPORT) appendFileSync(process.env.DRIVER_REPORT, `${callback}\n`);
  await fetch(callback);
}
