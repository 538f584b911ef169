// Confirmations on a real terminal, answered as a person does: "no" or another id typed back sends nothing and exits
// 2; `erasure create` shows who the customer is before asking; --no-input says it is what refuses.
import { describe, expect, it } from 'vitest';
import { plain } from '../../helpers/pty.js';
import { usePtyClinic } from '../../helpers/pty-modes.js';
import { useTempDir } from '../../helpers/temp-dir.js';
import { useWorld } from '../../helpers/world.js';

const world = useWorld();
const startOnPty = usePtyClinic(world, useTempDir('clinic-prompts-'));
/** On a terminal wide enough that each question is one line. */
const onTerminal = (args: string[]) => startOnPty(args, { cols: 250 });
const sent = () => world.newRequests().map((r) => `${r.method} ${r.path}`);

/** Customer `id` as the server shows this user: what the question must name. */
async function customer(id: number) {
  const { stdout } = await world.clinic(['customers', 'get', String(id), '-o', 'json']);
  return JSON.parse(stdout) as { first_name: string; last_name: string; email: string };
}

describe('erasure create --customer on a terminal', () => {
  it('names the customer as the server shows them, then sends once the id is typed back', async () => {
    const { first_name, last_name, email } = await customer(2);
    world.newRequests();
    const t = onTerminal(['erasure', 'create', '--customer', '2', '--reason', 'asked']);
    await t.waitFor('Type 2 to confirm');
    expect(plain(t.output)).toContain(
      `This requests the erasure of all data of customer 2 (${first_name} ${last_name}, ${email}, `,
    );
    t.type('2\r');
    const { code } = await t.exited;
    expect(code, plain(t.output)).toBe(0);
    expect(sent()).toEqual(['GET /api/v1/customers/2', 'POST /api/v1/data-erasure-requests']);
  });

  it('another id typed back: exit 2, nothing sent', async () => {
    world.newRequests();
    const t = onTerminal(['erasure', 'create', '--customer', '1']);
    await t.waitFor('Type 1 to confirm');
    t.type('7\r');
    const { code, output } = await t.exited;
    expect(code, plain(output)).toBe(2);
    expect(plain(output)).toContain("error: cancelled: you typed '7', not 1; nothing was sent");
    expect(sent()).toEqual(['GET /api/v1/customers/1']);
  });

  it('Ctrl-D (end of input) at the question: cancelled, exit 2, nothing sent (was exit 0 after "interrupted")', async () => {
    world.newRequests();
    const t = onTerminal(['erasure', 'create', '--customer', '1']);
    await t.waitFor('Type 1 to confirm');
    t.type('\x04');
    const { code, output } = await t.exited;
    expect(code, plain(output)).toBe(2);
    expect(plain(output)).toContain('error: cancelled: the input ended before an answer; nothing was sent');
    expect(sent()).toEqual(['GET /api/v1/customers/1']);
  });

  it('--no-input: refused by name before any request, the read included (exit 2)', async () => {
    world.newRequests();
    const t = onTerminal(['erasure', 'create', '--customer', '1', '--no-input']);
    const { code, output } = await t.exited;
    expect(code).toBe(2);
    expect(plain(output).trim()).toBe(
      'error: erasure create needs a confirmation and --no-input forbids the prompt: pass --yes',
    );
    expect(sent()).toEqual([]);
  });
});

describe('a yes/no confirmation on a terminal', () => {
  it('answered no: "cancelled: nothing was sent", exit 2, only the read', async () => {
    const id = world.sandbox.fixtures.tenants[1]!.erasureRequests.verified;
    world.newRequests();
    const t = onTerminal(['erasure', 'cancel', String(id), '--reason', 'x']);
    await t.waitFor(`Withdraw erasure request ${id}`);
    t.type('n\r');
    const { code, output } = await t.exited;
    expect(code, plain(output)).toBe(2);
    expect(plain(output)).toContain('error: cancelled: nothing was sent');
    expect(sent()).toEqual([`GET /api/v1/data-erasure-requests/${id}`]);
  });

  it('Ctrl-D: cancelled as a no, exit 2, only the read', async () => {
    const id = world.sandbox.fixtures.tenants[1]!.erasureRequests.verified;
    world.newRequests();
    const t = onTerminal(['erasure', 'cancel', String(id), '--reason', 'x']);
    await t.waitFor(`Withdraw erasure request ${id}`);
    t.type('\x04');
    const { code, output } = await t.exited;
    expect(code, plain(output)).toBe(2);
    expect(plain(output)).toContain('error: cancelled: the input ended before an answer; nothing was sent');
    expect(sent()).toEqual([`GET /api/v1/data-erasure-requests/${id}`]);
  });
});
