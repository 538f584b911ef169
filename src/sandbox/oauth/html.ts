// Plain server-rendered pages for the OpenID provider: one layout, HTML escaping, and the one HTML writer.
import type { ServerResponse } from 'node:http';

const STYLE = [
  'body{font:15px/1.4 system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem;color:#222}',
  'h1{font-size:1.3rem}button{display:block;width:100%;margin:.4rem 0;padding:.6rem;font:inherit;',
  'text-align:left;border:1px solid #bbb;border-radius:6px;background:#f6f6f6;cursor:pointer}',
  'button:hover{background:#e8eefc}#consent-allow{background:#2f6fde;color:#fff;text-align:center}',
  '#consent-deny{text-align:center}ul{padding-left:1.2rem}code{background:#f0f0f0;padding:0 .2rem}',
  '.muted{color:#666;font-size:.9rem}.error{color:#a00}',
].join('');

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

/** A whole page; `body` must already be escaped. */
export function layout(title: string, body: string): string {
  return [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)} · Clinic sandbox</title><style>${STYLE}</style></head>`,
    `<body><h1>${escapeHtml(title)}</h1>${body}</body></html>`,
  ].join('\n');
}

export function messagePage(title: string, message: string): string {
  return layout(title, `<p>${escapeHtml(message)}</p>`);
}

export function sendHtml(res: ServerResponse, status: number, html: string): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': Buffer.byteLength(html),
    // Sign-in pages must not be cached or framed; inline styles are the only thing they load.
    'Cache-Control': 'no-store',
    'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
    'X-Frame-Options': 'DENY',
  });
  res.end(html);
}
