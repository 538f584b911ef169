// What the built CLI advises after a 403, against a fake server answering each wording and against the sandbox's
// own refusals (a viewer's write, a token without the scope): a role refusal goes to a clinic admin, a scope is
// named only when known, and a token from CLINIC_TOKEN is to be replaced, never signed in over.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CREATE_CUSTOMER, runCli } from '../../helpers/cli.js';
import { type FakeApi, startFakeApi } from '../../helpers/fake-api.js';
import { useWorld } from '../../helpers/world.js';

const ADMIN = "hint: your user's role in this clinic does not allow this: ask a clinic admin";

describe('a server answering 403 in its own words', () => {
  let api: FakeApi;
  let configDir: string;
  let wording = '';
  beforeAll(async () => {
    api = await startFakeApi({
      answer: (request) =>
        request.path.startsWith('/api/v1/account-transaction-types')
          ? { status: 403, body: { message: wording } }
          : undefined,
    });
    configDir = await api.configDir();
    // A personal access token stored for the profile: its scopes are not known to the CLI.
    const login = await runCli(configDir, ['login', '--with-token', '--insecure-storage'], {
      input: 'pat-token',
    });
    expect(login.code, login.stderr).toBe(0);
  });
  afterAll(() => api?.close());

  const refusedWith = async (message: string, env: Record<string, string> = {}) => {
    wording = message;
    const result = await runCli(configDir, ['transaction-types', 'list'], { env });
    expect(result.code).toBe(4);
    return result.stderr.split('\n').filter(Boolean);
  };

  it('"You do not have a role in this clinic": ask a clinic admin, no scope invented, no sign-in', async () => {
    const lines = await refusedWith('You do not have a role in this clinic');
    expect(lines).toEqual(['error: You do not have a role in this clinic (HTTP 403)', ADMIN]);
  });

  it('"This action is unauthorized.": the role, the same with CLINIC_TOKEN', async () => {
    expect(await refusedWith('This action is unauthorized.')).toContain(ADMIN);
    expect(await refusedWith('This action is unauthorized.', { CLINIC_TOKEN: 'env-token' })).toContain(ADMIN);
  });

  it('"Invalid scope(s) provided.": a scope is missing, none is named', async () => {
    const lines = await refusedWith('Invalid scope(s) provided.');
    expect(lines[1]).toBe(
      'hint: the token lacks a scope this request needs; sign in again with a token or a sign-in that has it: clinic login',
    );
    expect(lines.join('\n')).not.toMatch(/account-transaction-types:read/);
  });

  it('"Invalid scope(s) provided." with CLINIC_TOKEN: replace the token', async () => {
    const lines = await refusedWith('Invalid scope(s) provided.', { CLINIC_TOKEN: 'env-token' });
    expect(lines[1]).toBe(
      'hint: the token in CLINIC_TOKEN lacks a scope this request needs: set CLINIC_TOKEN to a token that has it',
    );
  });

  it('a scope the server names is named', async () => {
    const lines = await refusedWith('This token needs the scope account-transaction-types:read.');
    expect(lines[1]).toContain('the token lacks the scope account-transaction-types:read');
  });
});

describe('the sandbox', () => {
  const world = useWorld();

  it("a viewer's write (role refused, token with every scope): ask a clinic admin", async () => {
    const viewer = world.sandbox.issueToken({ userId: 3, scopes: ['*'] });
    const result = await world.clinic(CREATE_CUSTOMER, { env: { CLINIC_TOKEN: viewer } });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain(ADMIN);
    expect(result.stderr).not.toContain('--scopes');
  });

  it('a token without the scope to write customers: customers:write named (the API document gives it)', async () => {
    const reader = world.sandbox.issueToken({ userId: 1, scopes: ['customers:read'] });
    const result = await world.clinic(CREATE_CUSTOMER, { env: { CLINIC_TOKEN: reader } });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain(
      'hint: the token in CLINIC_TOKEN lacks the scope customers:write: set CLINIC_TOKEN to a token that has it',
    );
  });

  it('a token without the scope to read transaction types: no scope name made up', async () => {
    const reader = world.sandbox.issueToken({ userId: 1, scopes: ['customers:read'] });
    const result = await world.clinic(['transaction-types', 'list'], { env: { CLINIC_TOKEN: reader } });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('lacks a scope this request needs');
    expect(result.stderr).not.toContain('account-transaction-types:read');
  });
});
