// The erasure workflow end to end: the built CLI against a sandbox, every status × action, confirmations, watch.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERASURE_STATUSES } from '../../../src/core/api/erasure.js';
import { startWorld } from '../../helpers/cli.js';
import { useWorld } from '../../helpers/world.js';

const STATUSES = ERASURE_STATUSES;
// The actions that change a request (retry, cancel) come last, so each status's request serves all four.
const ACTIONS = ['resend', 'certificate', 'retry', 'cancel'] as const;

const world = useWorld(() => startWorld({ erasureStepSeconds: 0 }));
/** The sandbox's frozen request per status, of tenant 1 (and of tenant 2, for a second one). */
const fixture = (status: string, tenant = 1) =>
  (world.sandbox.fixtures.tenants[tenant]?.erasureRequests as Record<string, number>)[status] ?? 0;

describe('erasure matrix against the sandbox', () => {
  const cases = STATUSES.flatMap((status) => ACTIONS.map((action) => ({ status, action })));
  it.each(cases)('$action on a $status request', async ({ status, action }) => {
    // retry moves tenant 1's failed request on, so cancel meets tenant 2's failed one.
    const tenant = status === 'failed' && action === 'cancel' ? 2 : 1;
    const id = String(fixture(status, tenant));
    const t = ['--tenant', String(tenant)];
    const got = JSON.parse((await world.clinic([...t, 'erasure', 'get', id, '-o', 'json'])).stdout);
    expect(got.status).toBe(status);
    const allowed = got.state_allows[action] === true;
    world.newRequests();
    const args: Record<(typeof ACTIONS)[number], string[]> = {
      resend: ['erasure', 'resend', id],
      cancel: ['erasure', 'cancel', id, '--reason', 'test', '--yes'],
      retry: ['erasure', 'retry', id, '--yes'],
      certificate: ['erasure', 'certificate', id, '-O', join(world.configDir, `cert-${id}.pdf`), '--force'],
    };
    const result = await world.clinic([...t, ...args[action], '-o', 'json']);
    const sent = world.newRequests().map((r) => `${r.method} ${r.path}`);
    if (allowed) {
      expect(result.code, result.stderr).toBe(0);
      const second = action === 'certificate' ? 'GET' : 'POST';
      expect(sent).toEqual([
        `GET /api/v1/data-erasure-requests/${id}`,
        `${second} /api/v1/data-erasure-requests/${id}/${action}`,
      ]);
      if (action === 'certificate')
        expect((await readFile(join(world.configDir, `cert-${id}.pdf`))).subarray(0, 5).toString()).toBe(
          '%PDF-',
        );
    } else {
      expect(result.code).toBe(6);
      expect(result.stderr).toContain(
        `${action} is not allowed while the request's status is ${status.replace(/_/g, ' ')}`,
      );
      expect(sent).toEqual([`GET /api/v1/data-erasure-requests/${id}`]);
    }
  });
});

describe('erasure errors and confirmations', () => {
  it('an unknown id is exit 5', async () => {
    expect((await world.clinic(['erasure', 'get', '999999'])).code).toBe(5);
  });

  it('without a terminal and without --yes: exit 2 before any request', async () => {
    world.newRequests();
    for (const argv of [
      ['erasure', 'create', '--customer', '1'],
      ['erasure', 'cancel', String(fixture('verified')), '--reason', 'x'],
      ['erasure', 'retry', String(fixture('failed', 2))],
    ]) {
      const result = await world.clinic(argv);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('--yes');
    }
    expect(world.newRequests()).toEqual([]);
  });

  it('list filters reach the server and bad ones never leave', async () => {
    world.newRequests();
    const { code, stdout } = await world.clinic([
      'erasure',
      'list',
      '--status',
      'completed',
      '--sort-by',
      'executed_at',
      '--sort-order',
      'desc',
      '-o',
      'ndjson',
    ]);
    expect(code).toBe(0);
    for (const line of stdout.trim().split('\n')) expect(JSON.parse(line).status).toBe('completed');
    expect((await world.clinic(['erasure', 'list', '--created-to', '2026-13-01'])).code).toBe(2);
    expect(world.newRequests()).toHaveLength(1);
  });
});

describe('erasure create and watch with the sandbox moving requests along', () => {
  const moving = useWorld(() => startWorld({ erasureStepSeconds: 1 }));

  it('create with --yes, then watch prints each change and ends at a terminal status', async () => {
    const customers = JSON.parse((await moving.clinic(['customers', 'list', '--all', '-o', 'json'])).stdout);
    let created: { id: number; status: string } | undefined;
    for (const customer of customers.filter(
      (c: { record_state: { is_read_only: boolean } }) => !c.record_state.is_read_only,
    )) {
      const result = await moving.clinic([
        'erasure',
        'create',
        '--customer',
        String(customer.id),
        '--reason',
        'e2e',
        '--yes',
        '-o',
        'json',
      ]);
      if (result.code === 0) {
        created = JSON.parse(result.stdout);
        break;
      }
      expect(result.code).toBe(6); // an open request already: a conflict, never anything else
    }
    expect(created?.status).toBe('pending_verification');
    const watch = await moving.clinic([
      'erasure',
      'watch',
      String(created?.id),
      '--interval',
      '1',
      '--timeout',
      '30',
      '-o',
      'ndjson',
    ]);
    const statuses = watch.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).status);
    expect(statuses[0]).toBe('pending_verification');
    expect(new Set(statuses).size).toBe(statuses.length); // each change once
    const last = statuses.at(-1);
    expect(['completed', 'failed']).toContain(last);
    expect(watch.code).toBe(last === 'completed' ? 0 : 1);
  }, 60_000);
});
