// `clinic api PATH` is asked for below base_url (`…/api`): a path that repeats its end (`/api/v1/…`, copied from a
// URL) gets a 404, and the line after it says which path was meant. A 404 of a path that is right says nothing more.
import { describe, expect, it } from 'vitest';
import { lines } from '../../helpers/cli.js';
import { useWorld } from '../../helpers/world.js';

const world = useWorld();

describe('clinic api with the base path repeated', () => {
  it.each(['/api/v1/customers/1', 'api/v1/customers/1'])(
    '%s: exit 5, and a hint naming the path meant',
    async (path) => {
      const result = await world.clinic(['api', path]);
      expect(result.code).toBe(5);
      const told = lines(result.stderr);
      expect(told[0]).toMatch(/^error: .*\(HTTP 404/);
      expect(told.at(-1)).toBe(
        `hint: base_url (${world.sandbox.info.base_url}) ends with /api already, so this asked for ` +
          '/api/api/v1/customers/1: try `clinic api /v1/customers/1`',
      );
      expect((await world.clinic(['api', '/v1/customers/1'])).code).toBe(0);
    },
  );

  it('a 404 of a path that is right: no hint', async () => {
    const result = await world.clinic(['api', '/v1/customers/999999']);
    expect(result.code).toBe(5);
    expect(result.stderr).not.toContain('hint:');
  });
});
