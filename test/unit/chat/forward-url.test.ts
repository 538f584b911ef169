// --forward-to: patient messages go over https, or in clear text only to this machine; refused (exit 2) otherwise.
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/core/errors.js';
import { forwardUrl } from '../../../src/core/realtime/forward-url.js';

describe('forwardUrl', () => {
  it.each([
    'http://127.0.0.1:8080/hooks',
    'http://127.3.2.1/x',
    'http://localhost:4242/',
    'http://[::1]:9000/clinic?token-free=1',
    'https://helpdesk.example.com/webhooks/clinic',
    'https://10.0.0.5/in',
  ])('accepts %s', (text) => {
    expect(forwardUrl(text).href).toBe(new URL(text).href);
  });

  it.each([
    ['http://helpdesk.example.com/hooks', /must use https .*clear text to 'helpdesk.example.com'/],
    ['http://10.0.0.5:8080/', /must use https/],
    ['http://127.0.0.1.example.com/', /must use https/],
    ['ftp://127.0.0.1/', /http or https address/],
    ['file:///etc/passwd', /http or https address/],
    ['127.0.0.1:8080', /http or https address|not a URL/],
    ['not a url', /not a URL/],
    ['https://user:pw@helpdesk.example.com/', /must not hold a user name or password/],
  ])('refuses %s', (text, message) => {
    expect(() => forwardUrl(text)).toThrow(UsageError);
    expect(() => forwardUrl(text)).toThrow(message);
  });
});
