// The retry rules in one place: which statuses and network errors are retried, and the backoff.
import { describe, expect, it } from 'vitest';
import {
  backoffMs,
  shouldRetryNetworkError,
  shouldRetryStatus,
} from '../../../src/core/http/retry-policy.js';

describe('shouldRetryStatus', () => {
  it('retries 429 for every method', () => {
    for (const method of ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'])
      expect(shouldRetryStatus(429, method)).toBe(true);
  });

  it('retries 500, 502, 503, 504 for GET/PUT/DELETE only', () => {
    for (const status of [500, 502, 503, 504]) {
      for (const method of ['GET', 'put', 'DELETE']) expect(shouldRetryStatus(status, method)).toBe(true);
      for (const method of ['POST', 'PATCH']) expect(shouldRetryStatus(status, method)).toBe(false);
    }
  });

  it('does not retry other statuses', () => {
    for (const status of [400, 401, 403, 404, 409, 422, 428, 501])
      expect(shouldRetryStatus(status, 'GET')).toBe(false);
  });
});

describe('shouldRetryNetworkError', () => {
  const err = (code: string) => Object.assign(new Error(code), { code });

  it('retries resets and timeouts for idempotent methods', () => {
    for (const code of ['ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'CLINIC_DEADLINE']) {
      expect(shouldRetryNetworkError(err(code), 'GET')).toBe(true);
      expect(shouldRetryNetworkError(err(code), 'DELETE')).toBe(true);
    }
  });

  it('never for POST or PATCH', () => {
    expect(shouldRetryNetworkError(err('ECONNRESET'), 'POST')).toBe(false);
    expect(shouldRetryNetworkError(err('ECONNRESET'), 'PATCH')).toBe(false);
  });

  it('not for errors without a retryable code', () => {
    expect(shouldRetryNetworkError(new Error('boom'), 'GET')).toBe(false);
    expect(shouldRetryNetworkError(err('ENOTFOUND'), 'GET')).toBe(false);
    expect(shouldRetryNetworkError(null, 'GET')).toBe(false);
  });
});

describe('backoffMs', () => {
  it('is 1, 2, 4, 8 s, then stays at 8 s', () => {
    expect([0, 1, 2, 3, 4, 5].map(backoffMs)).toEqual([1000, 2000, 4000, 8000, 8000, 8000]);
  });
});
