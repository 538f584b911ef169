// The registry of this run's secrets: every printed form of a registered token is hidden from stderr text, the
// error lines and the JSON error object, however short; stdout data is not its business.
import { describe, expect, it } from 'vitest';
import { errorJson, errorLines } from '../../../src/cli/report-error.js';
import { ApiError } from '../../../src/core/errors.js';
import { REDACTED, redactSecrets, redactSecretsDeep, registerSecret } from '../../../src/core/redact.js';

const SECRET = 'reg1stry/Token+with=odd|chars~é0123';
registerSecret(SECRET);

describe('redactSecrets', () => {
  const json = JSON.stringify(SECRET).slice(1, -1);
  it.each([
    ['as it is', SECRET],
    ['URL-encoded', encodeURIComponent(SECRET)],
    ['URL-encoded, lower-case hex', encodeURIComponent(SECRET).toLowerCase()],
    ['form-encoded', new URLSearchParams({ v: SECRET }).toString().slice(2)],
    ['JSON with escaped slashes', json.replaceAll('/', '\\/')],
    ['JSON with \\u escapes', json.replace('é', '\\u00e9')],
    ['JSON with \\u escapes and escaped slashes', json.replace('é', '\\u00e9').replaceAll('/', '\\/')],
    ['in upper case', SECRET.toUpperCase()],
  ])('hides the secret %s', (_, form) => {
    expect(redactSecrets(`before ${form} after`)).toBe(`before ${REDACTED} after`);
  });

  it('leaves other text alone', () => {
    expect(redactSecrets('nothing secret here: reg1stry/Token')).toBe('nothing secret here: reg1stry/Token');
  });

  it('hides a short token too (7 characters) where it stands as a word; an empty value registers nothing', () => {
    registerSecret('s3cr3t7', '', undefined);
    expect(redactSecrets('invalid token s3cr3t7')).toBe(`invalid token ${REDACTED}`);
    expect(redactSecrets('plain text')).toBe('plain text');
    // Where it stands inside a longer word, it is not the token: "configuration" keeps its "at".
    registerSecret('at');
    expect(redactSecrets('/.well-known/openid-configuration at 10:00')).toBe(
      `/.well-known/openid-configuration ${REDACTED} 10:00`,
    );
  });

  it('hides secrets in keys and values of a JSON value', () => {
    expect(redactSecretsDeep({ [SECRET]: [SECRET, { x: `a ${SECRET}` }], n: 1 })).toEqual({
      [REDACTED]: [REDACTED, { x: `a ${REDACTED}` }],
      n: 1,
    });
  });
});

describe('error reports', () => {
  const error = new ApiError({
    status: 422,
    code: `E_${SECRET}`,
    message: `bad ${SECRET}`,
    fieldErrors: [{ field: SECRET, messages: [encodeURIComponent(SECRET)] }],
    nextStep: SECRET,
  });

  it('error lines carry no form of it', () => {
    const text = errorLines(error, { json: false, debug: true }).join('\n');
    expect(text).toContain('bad ***');
    expect(text).not.toContain(SECRET.slice(0, 12));
  });

  it('the JSON error object carries none, and stays valid JSON', () => {
    const text = errorJson(error);
    expect(text).not.toContain(SECRET.slice(0, 12));
    expect(JSON.parse(text)).toMatchObject({
      error: { message: 'bad ***', code: 'E_***', errors: { '***': ['***'] }, next_step: '***' },
    });
  });
});
