// The API's four error body shapes, parsed into ApiError and mapped to the contract's exit codes.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { errorJson, errorLines } from '../../../src/cli/report-error.js';
import {
  ApiError,
  AuthError,
  CancelledError,
  ConflictError,
  NetworkError,
  UsageError,
} from '../../../src/core/errors.js';
import { ExitCode, exitCodeForStatus, toExitCode } from '../../../src/core/exit-codes.js';
import { parseApiError, parseRetryAfter } from '../../../src/core/http/parse-error.js';

const body = (value: unknown) => JSON.stringify(value);
const lines = (error: unknown) => errorLines(error, { json: false, debug: false });

describe('parseApiError: plain {message} bodies', () => {
  it('401 keeps the message and exits 3 with a login hint', () => {
    const error = parseApiError(401, body({ message: 'Unauthenticated.' }));
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(401);
    expect(error.message).toBe('Unauthenticated.');
    expect(error.code).toBeUndefined();
    expect(error.fieldErrors).toEqual([]);
    expect(toExitCode(error)).toBe(3);
    expect(lines(error)[0]).toBe('error: Unauthenticated. (HTTP 401)');
    expect(lines(error)).toContain('run: clinic login (the token was rejected)');
  });

  it('403 keeps the message and exits 4', () => {
    const error = parseApiError(403, body({ message: 'This action is unauthorized.' }));
    expect(error.message).toBe('This action is unauthorized.');
    expect(toExitCode(error)).toBe(4);
    expect(lines(error)).toContain(
      "hint: your user's role in this clinic does not allow this: ask a clinic admin",
    );
  });
});

describe('parseApiError: validation {message, errors} bodies', () => {
  const error = parseApiError(
    422,
    body({
      message: 'The given data was invalid.',
      errors: { email: ['The email must be a valid email address.'], phone_number: ['Too short.', 'Bad.'] },
    }),
  );

  it('lists every field error with its messages', () => {
    expect(error.fieldErrors).toEqual([
      { field: 'email', messages: ['The email must be a valid email address.'] },
      { field: 'phone_number', messages: ['Too short.', 'Bad.'] },
    ]);
  });

  it('exits 7', () => {
    expect(toExitCode(error)).toBe(ExitCode.validation);
    expect(toExitCode(error)).toBe(7);
  });

  it('prints one error line, then one line per field', () => {
    expect(lines(error)).toEqual([
      'error: The given data was invalid. (HTTP 422)',
      '  email: The email must be a valid email address.',
      '  phone_number: Too short. Bad.',
    ]);
  });
});

describe('parseApiError: coded bodies', () => {
  it('SETUP_REQUIRED 428 with success:true is an error, exits 8 and prints the next step', () => {
    const error = parseApiError(
      428,
      body({
        success: true,
        error_code: 'SETUP_REQUIRED',
        message: 'Setup is not complete.',
        errors: null,
        data: { next_step: 'clinic_profile' },
      }),
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error.code).toBe('SETUP_REQUIRED');
    expect(error.nextStep).toBe('clinic_profile');
    expect(toExitCode(error)).toBe(8);
    expect(lines(error)).toContain('next step: clinic_profile');
    expect(lines(error)[0]).toBe('error: Setup is not complete. (HTTP 428 SETUP_REQUIRED)');
  });

  it('SETUP_REQUIRED with success:false behaves the same (the flag does not matter)', () => {
    const a = parseApiError(
      428,
      body({ success: true, error_code: 'SETUP_REQUIRED', data: { next_step: 'x' } }),
    );
    const b = parseApiError(
      428,
      body({ success: false, error_code: 'SETUP_REQUIRED', data: { next_step: 'x' } }),
    );
    expect(toExitCode(a)).toBe(toExitCode(b));
    expect(a.nextStep).toBe(b.nextStep);
    expect(lines(a)).toEqual(lines(b));
  });

  it('SETUP_REQUIRED with data.next_step null has no next step line', () => {
    const error = parseApiError(
      428,
      body({ success: false, error_code: 'SETUP_REQUIRED', data: { next_step: null } }),
    );
    expect(error.nextStep).toBeUndefined();
    expect(toExitCode(error)).toBe(8);
    expect(lines(error).some((line) => line.startsWith('next step'))).toBe(false);
  });

  it('RESOURCE_NOT_FOUND 404 exits 5', () => {
    const error = parseApiError(
      404,
      body({ success: false, error_code: 'RESOURCE_NOT_FOUND', message: 'Customer not found.', data: null }),
    );
    expect(error.code).toBe('RESOURCE_NOT_FOUND');
    expect(error.message).toBe('Customer not found.');
    expect(toExitCode(error)).toBe(5);
  });

  it.each([400, 403, 409, 422, 423, 500])('CUSTOMER_ERASED exits 6 whatever the status (%i)', (status) => {
    const error = parseApiError(
      status,
      body({
        success: false,
        error_code: 'CUSTOMER_ERASED',
        message: 'The customer was erased.',
        data: null,
      }),
    );
    expect(error.code).toBe('CUSTOMER_ERASED');
    expect(toExitCode(error)).toBe(6);
  });

  it('a coded body without message falls back to the error code', () => {
    const error = parseApiError(400, body({ success: false, error_code: 'BAD_REQUEST', message: '' }));
    expect(error.message).toBe('BAD_REQUEST');
    expect(toExitCode(error)).toBe(1);
  });
});

describe('parseApiError: legacy envelope {success:false, error, data:{message}}', () => {
  it('takes the message from data.message', () => {
    const error = parseApiError(
      404,
      body({ success: false, error: 'Not found', data: { message: 'Customer 99 does not exist.' } }),
    );
    expect(error.message).toBe('Customer 99 does not exist.');
    expect(toExitCode(error)).toBe(5);
  });

  it('falls back to `error` when data.message is missing', () => {
    const error = parseApiError(400, body({ success: false, error: 'Missing X-Tenant header', data: {} }));
    expect(error.message).toBe('Missing X-Tenant header');
  });

  it('keeps the field errors of a legacy validation answer', () => {
    const error = parseApiError(
      422,
      body({
        success: false,
        error: 'Invalid',
        data: { message: 'Invalid data' },
        errors: { name: ['required'] },
      }),
    );
    expect(error.message).toBe('Invalid data');
    expect(error.fieldErrors).toEqual([{ field: 'name', messages: ['required'] }]);
    expect(toExitCode(error)).toBe(7);
  });
});

describe('parseApiError: status alone', () => {
  it('409 exits 6', () => {
    expect(toExitCode(parseApiError(409, body({ message: 'Conflict' })))).toBe(6);
  });

  it('429 exits 9 and prints the wait', () => {
    const error = parseApiError(429, body({ message: 'Too Many Attempts.' }), 12);
    expect(error.retryAfterSeconds).toBe(12);
    expect(toExitCode(error)).toBe(9);
    expect(lines(error)).toContain(
      'rate limited: gave up; the server asked to wait 12s before the next request',
    );
  });

  it('a Retry-After no date can hold is said without its date, never a crash', () => {
    for (const retryAfter of [1e20, 8.7e12, Number.MAX_VALUE]) {
      const error = parseApiError(429, body({ message: 'Slow down' }), retryAfter);
      expect(toExitCode(error)).toBe(9);
      expect(lines(error).at(-1)).toMatch(
        /^rate limited: the server asks to come back in \S+s; not waiting that long$/,
      );
      expect(JSON.parse(errorJson(error)).error.exit_code).toBe(9);
    }
    const near = parseApiError(429, body({ message: 'Slow down' }), 7200);
    expect(lines(near).at(-1)).toMatch(/come back in 7200s, at 20\d\d-.*Z; not waiting that long$/);
  });

  it('503 exits 9 and says to try again later when there is no Retry-After', () => {
    const error = parseApiError(503, body({ message: 'Down for maintenance' }));
    expect(toExitCode(error)).toBe(9);
    expect(lines(error)).toContain('unavailable: gave up; try again later');
  });

  it('500 exits 1', () => {
    expect(toExitCode(parseApiError(500, body({ success: false, error_code: 'SERVER_ERROR' })))).toBe(1);
  });

  it('a non-JSON (HTML) body says only the status: HTTP 502 bad gateway, exit 1', () => {
    const html = '<html><body><h1>502 Bad Gateway</h1></body></html>';
    const error = parseApiError(502, html);
    expect(error.message).toBe('HTTP 502 bad gateway');
    expect(error.bodyText).toBe(html);
    expect(toExitCode(error)).toBe(1);
    expect(lines(error)[0]).not.toContain('<html>');
  });

  it('an empty body says only the status', () => {
    const error = parseApiError(404, '');
    expect(error.message).toBe('HTTP 404 not found');
    expect(error.body).toBeUndefined();
    expect(toExitCode(error)).toBe(5);
  });

  it('an unknown status without a body says "HTTP <status>"', () => {
    expect(parseApiError(418, '').message).toBe('HTTP 418');
  });

  it('a JSON body that is not an object (array, string) says only the status', () => {
    expect(parseApiError(500, '[1,2]').message).toBe('HTTP 500 server error');
    expect(parseApiError(500, '"oops"').message).toBe('HTTP 500 server error');
  });
});

describe('exit codes of the CLI error kinds', () => {
  it.each([
    [new UsageError('bad'), 2],
    [new AuthError('not logged in'), 3],
    [new ConflictError('cancel is not allowed'), 6],
    [new CancelledError('interrupted'), 130],
    [new NetworkError('cannot reach'), 1],
    [new Error('boom'), 1],
    ['a string', 1],
  ])('%s -> %i', (error, code) => {
    expect(toExitCode(error)).toBe(code);
  });

  it.each([
    [401, 3],
    [403, 4],
    [404, 5],
    [409, 6],
    [422, 7],
    [428, 8],
    [429, 9],
    [503, 9],
    [400, 1],
    [500, 1],
    [502, 1],
    [504, 1],
  ])('status %i -> exit %i', (status, code) => {
    expect(exitCodeForStatus(status)).toBe(code);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-03-01T12:00:00Z');

  it('reads delta seconds', () => {
    expect(parseRetryAfter('3', now)).toBe(3);
    expect(parseRetryAfter('0', now)).toBe(0);
  });

  it('reads an HTTP date relative to now', () => {
    expect(parseRetryAfter(new Date(now + 5000).toUTCString(), now)).toBe(5);
  });

  it('a date in the past means no wait; garbage and absence mean unknown', () => {
    expect(parseRetryAfter(new Date(now - 60_000).toUTCString(), now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });

  it('an empty or blank header is unknown, not a retry at once (Number of it would be 0)', () => {
    for (const blank of ['', ' ', '\t']) expect(parseRetryAfter(blank, now)).toBeUndefined();
  });
});

describe('errorJson', () => {
  it('has the contract shape {"error":{"status","code","message","errors"}} for a 422', () => {
    const error = parseApiError(422, body({ message: 'Invalid', errors: { email: ['bad'] } }));
    const parsed = JSON.parse(errorJson(error));
    expect(parsed.error).toMatchObject({
      status: 422,
      code: null,
      message: 'Invalid',
      errors: { email: ['bad'] },
      exit_code: 7,
    });
  });

  it('carries next_step of a 428 and the code', () => {
    const error = parseApiError(
      428,
      body({ success: true, error_code: 'SETUP_REQUIRED', data: { next_step: 'x' } }),
    );
    const parsed = JSON.parse(errorJson(error));
    expect(parsed.error).toMatchObject({ status: 428, code: 'SETUP_REQUIRED', errors: null, next_step: 'x' });
  });

  it("never carries a control a terminal would act on in the server's text, only its escape", () => {
    const error = parseApiError(
      422,
      body({ message: 'bad \u009b2J \u202eevil', errors: { 'a\u2028b': ['x\u0085'] } }),
    );
    const text = errorJson(error);
    expect(text).not.toMatch(/[\u007f-\u009f\u202e\u2028]/);
    expect(JSON.parse(text).error).toMatchObject({
      message: 'bad \u009b2J \u202eevil',
      errors: { 'a\u2028b': ['x\u0085'] },
    });
  });

  it("a server's megabytes of message, or thousands of fields, take a few lines; -o json keeps them all", () => {
    const error = parseApiError(
      422,
      body({
        message: 'm'.repeat(5_000_000),
        errors: Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`f${i}`, ['x'.repeat(3000)]])),
      }),
    );
    const shown = lines(error);
    expect(shown).toHaveLength(1 + 50 + 1);
    expect(shown[0]).toMatch(/^error: m{1000}… \(4999000 more characters\) \(HTTP 422\)$/);
    expect(shown[1]).toMatch(/^ {2}f0: x{1000}… \(2000 more characters\)$/);
    expect(shown.at(-1)).toBe('  … 2950 more fields (-o json has them all)');
    expect(Object.keys(JSON.parse(errorJson(error)).error.errors)).toHaveLength(3000);
    // The code and the next step too.
    const step = parseApiError(
      428,
      body({
        message: 'Do this first',
        error_code: 'C'.repeat(50_000),
        data: { next_step: 'n'.repeat(200_000) },
      }),
    );
    expect(lines(step).some((line) => line.startsWith('next step: nnn'))).toBe(true);
    for (const line of lines(step)) expect(line.length, line.slice(0, 40)).toBeLessThan(1200);
  });

  it('carries retry_after of a 429', () => {
    const parsed = JSON.parse(errorJson(parseApiError(429, '', 4)));
    expect(parsed.error).toMatchObject({ status: 429, retry_after: 4, exit_code: 9 });
  });

  it('describes CLI errors with a kind code and null status', () => {
    expect(JSON.parse(errorJson(new UsageError('bad --page')))).toEqual({
      error: { status: null, code: 'usage', message: 'bad --page', errors: null, exit_code: 2 },
    });
    expect(JSON.parse(errorJson(new AuthError('not logged in'))).error.code).toBe('auth');
    expect(JSON.parse(errorJson(new Error('boom'))).error).toMatchObject({ code: 'error', exit_code: 1 });
  });

  it('is a single line', () => {
    expect(errorJson(parseApiError(422, body({ message: 'x', errors: { a: ['b'] } })))).not.toContain('\n');
  });
});

describe('errorLines', () => {
  it('never includes a stack trace without debug', () => {
    const error = new Error('boom');
    const out = lines(error);
    expect(out).toEqual(['error: boom']);
    expect(out.join('\n')).not.toContain('    at ');
  });

  it('includes the stack of a non-API error with debug', () => {
    const out = errorLines(new Error('boom'), { json: false, debug: true });
    expect(out.join('\n')).toContain('    at ');
  });

  it('adds the hint of an AuthError', () => {
    expect(lines(new AuthError('not logged in', 'run: clinic login'))).toEqual([
      'error: not logged in',
      'run: clinic login',
    ]);
  });

  it('prints non-Error values as text', () => {
    expect(lines('weird')).toEqual(['error: weird']);
  });
});

describe('errorLines and terminal control characters', () => {
  it('replaces control characters from server text so they cannot drive the terminal', () => {
    const error = parseApiError(
      422,
      JSON.stringify({ message: 'bad\u001b[2J\u0007 input', errors: { a: ['x\u001b]0;t\u0007'] } }),
    );
    // eslint-disable-next-line no-control-regex -- looking for control characters
    for (const line of lines(error)) expect(line).not.toMatch(/[\u0000-\u001f\u007f]/);
    expect(lines(error)[0]).toBe('error: bad?[2J? input (HTTP 422)');
  });
});

describe('error codes that name Object.prototype members', () => {
  it('valueOf, constructor and toString are codes like any other, not read-only refusals', () => {
    for (const code of ['valueOf', 'constructor', 'toString', '__proto__'])
      expect(exitCodeForStatus(300, code), code).toBe(1);
    expect(exitCodeForStatus(422, 'CUSTOMER_ERASED')).toBe(6);
  });
});

const text = fc.string({ unit: 'binary', maxLength: 40 });

describe('error mapper, for any status and body (fast-check)', () => {
  const body = fc.oneof(
    text,
    fc.json(),
    fc
      .record({
        success: fc.boolean(),
        error_code: fc.oneof(
          fc.constantFrom('CUSTOMER_ERASED', 'LEAD_NOT_ASSIGNED', 'SETUP_REQUIRED', 'X'),
          text,
        ),
        message: text,
        errors: fc.oneof(fc.constant(null), fc.dictionary(text, fc.array(text))),
        data: fc.oneof(
          fc.constant(null),
          fc.record({ message: text, next_step: fc.oneof(text, fc.constant(null)) }),
        ),
      })
      .map((value) => JSON.stringify(value)),
  );

  it("any status and any body give a defined exit code, by the contract's table", () => {
    fc.assert(
      fc.property(fc.integer({ min: 300, max: 599 }), body, (status, bodyText) => {
        const error = parseApiError(status, bodyText);
        const code = toExitCode(error);
        expect([1, 3, 4, 5, 6, 7, 8, 9]).toContain(code);
        const readOnly = error.code === 'CUSTOMER_ERASED';
        const expected = readOnly
          ? 6
          : (({ 401: 3, 403: 4, 404: 5, 409: 6, 422: 7, 428: 8, 429: 9, 503: 9 } as Record<number, number>)[
              status
            ] ?? 1);
        expect(code).toBe(expected);
        expect(typeof error.message).toBe('string');
        expect(error.message.length).toBeGreaterThan(0);
      }),
    );
  });
});

describe('the error line says each thing once', () => {
  it('a body without a message: the status once, not "HTTP 500 server error (HTTP 500)"', () => {
    expect(lines(parseApiError(500, ''))[0]).toBe('error: HTTP 500 server error');
    expect(lines(parseApiError(502, '<html>Bad Gateway</html>'))[0]).toBe('error: HTTP 502 bad gateway');
  });

  it('a coded body whose message is its code: the code once', () => {
    const error = parseApiError(400, JSON.stringify({ success: false, error_code: 'BAD_REQUEST' }));
    expect(lines(error)[0]).toBe('error: BAD_REQUEST (HTTP 400)');
  });

  it("Laravel's 422 message (the first field error): said once, by its field line", () => {
    const error = parseApiError(
      422,
      JSON.stringify({
        message: 'The first name field is required. (and 1 more error)',
        errors: {
          first_name: ['The first name field is required.'],
          last_name: ['The last name field is required.'],
        },
      }),
    );
    expect(lines(error)).toEqual([
      'error: validation failed for 2 fields (HTTP 422)',
      '  first_name: The first name field is required.',
      '  last_name: The last name field is required.',
    ]);
    const one = parseApiError(422, JSON.stringify({ message: 'Bad.', errors: { a: ['Bad.'] } }));
    expect(lines(one)[0]).toBe('error: validation failed for 1 field (HTTP 422)');
  });

  it('a read-only refusal: what the code means, not the server repeating it', () => {
    const error = parseApiError(
      422,
      JSON.stringify({ success: false, error_code: 'CUSTOMER_ERASED', message: 'The customer was erased.' }),
    );
    expect(lines(error)[0]).toBe(
      "error: refused: the customer's data was erased, so the record is read-only (HTTP 422 CUSTOMER_ERASED)",
    );
  });
});
