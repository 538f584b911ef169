// useWorld: the world it returns is started before the suite's tests, stands for it in them, and is closed after.
import { stat } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { clinicSending, useWorld } from './world.js';

let baseUrl = '';
let configDir = '';
// Runs after the suite below, its own afterAll included.
afterAll(async () => {
  await expect(fetch(baseUrl)).rejects.toThrow();
  await expect(stat(configDir)).rejects.toThrow(/ENOENT/);
});

describe('a suite that uses a world', () => {
  const world = useWorld();
  let early: unknown;
  try {
    early = world.configDir;
  } catch (error) {
    early = error;
  }

  it('is refused while the tests are being collected, before the world starts', () => {
    expect(String(early)).toMatch(/starts in beforeAll/);
  });

  it('is the started world in the tests: signed in, its requests seen', async () => {
    const account = await world.clinic(['account']);
    expect(account.code, account.stderr).toBe(0);
    expect(world.newRequests().map((request) => request.path)).toEqual(['/api/v1/account']);
    expect((await stat(world.configDir)).isDirectory()).toBe(true);
    baseUrl = world.sandbox.info.base_url;
    configDir = world.configDir;
  });
});

describe('clinicSending', () => {
  const world = useWorld();

  it('gives the requests of its own run, none sent before it', async () => {
    expect((await world.clinic(['account'])).code).toBe(0);
    const { code, requests } = await clinicSending(world, ['tenants', 'list']);
    expect(code).toBe(0);
    expect(requests.map((request) => request.path)).toEqual(['/api/v1/account']);
  });
});
