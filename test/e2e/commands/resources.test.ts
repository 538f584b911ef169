// Every command of the contract's table end to end against the sandbox, with its error paths: 404 in both shapes,
// 422, 428, 403 (a role, a scope, another rep's lead) and CUSTOMER_ERASED.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TenantFixtures } from '../../../src/sandbox/index.js';
import { lines, startWorld } from '../../helpers/cli.js';
import { useWorld } from '../../helpers/world.js';

const world = useWorld(() => startWorld({ erasureStepSeconds: 0 }));
let t1: TenantFixtures;
beforeAll(() => {
  t1 = world.sandbox.fixtures.tenants[1] as TenantFixtures;
});

const json = async (args: string[]) => {
  const result = await world.clinic([...args, '-o', 'json']);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout);
};
const as = (token: string) => ({ env: { CLINIC_TOKEN: token } });

describe('reads', () => {
  it('users get, announcements get (also expired and inactive), conversations message', async () => {
    expect((await json(['users', 'get', '2'])).id).toBe(2);
    expect((await json(['announcements', 'get', String(t1.announcements.current[0])])).title).toEqual(
      expect.any(String),
    );
    expect((await json(['announcements', 'get', String(t1.announcements.inactive)])).is_active).toBe(false);
    expect((await json(['announcements', 'get', String(t1.announcements.expired)])).end_date).toEqual(
      expect.any(String),
    );
    const conversation = t1.conversations[0] as number;
    const messageId = t1.messages[conversation]?.[2] as number;
    expect((await json(['conversations', 'message', String(conversation), String(messageId)])).id).toBe(
      messageId,
    );
  });

  it('lists: appointments (paginated), channels and transaction types (unpaginated), messages --after', async () => {
    expect(await json(['appointments', 'list', '--all'])).toHaveLength(t1.appointments.length);
    expect(await json(['channels', 'list'])).toHaveLength(t1.channels.length);
    const types = await json(['transaction-types', 'list']);
    expect(types[0]).toEqual({ slug: expect.any(String), label: expect.any(String) });
    const conversation = t1.conversations[0] as number;
    const ids = t1.messages[conversation] as number[];
    const after = await json([
      'conversations',
      'messages',
      String(conversation),
      '--after',
      String(ids[2]),
      '--all',
    ]);
    expect(after.map((m: { id: number }) => m.id)).toEqual(ids.slice(3));
    const csv = await world.clinic(['channels', 'list', '-o', 'csv', '--fields', 'id,name']);
    expect(lines(csv.stdout)[0]).toBe('id,name\r');
  });

  it('404 in the coded shape and in the legacy envelope both exit 5 with the server message', async () => {
    const coded = await world.clinic(['announcements', 'get', '99999']);
    expect(coded.code).toBe(5);
    expect(coded.stderr).toContain('RESOURCE_NOT_FOUND');
    const legacy = await world.clinic(['form-templates', 'update', '99999', '--active']);
    expect(legacy.code).toBe(5);
    expect(legacy.stderr).toMatch(/error: .*not found/i);
  });

  it('428 on the tenant whose setup is incomplete, with the next step', async () => {
    const result = await world.clinic(['--tenant', '3', 'channels', 'list']);
    expect(result.code).toBe(8);
    expect(result.stderr).toContain('next step:');
  });
});

describe('writes', () => {
  it("leads notes add, and its refusals: CUSTOMER_ERASED exits 6, another rep's lead (plain 403) 4, 422 7", async () => {
    /** `leads notes add LEAD --content CONTENT`, and any further arguments. */
    const addNote = (lead: number, content: string, ...more: string[]) => [
      'leads',
      'notes',
      'add',
      String(lead),
      '--content',
      content,
      ...more,
    ];
    const note = await json(addNote(t1.leads.unassigned, 'Called back'));
    expect(note.content).toBe('Called back');
    const erased = await world.clinic(addNote(t1.leads.customerErased, 'x'));
    expect(erased.code).toBe(6);
    expect(erased.stderr.split('\n')[0]).toContain("the customer's data was erased");
    const salesperson = world.sandbox.issueToken({ userId: world.sandbox.fixtures.salespersonUserId });
    const other = await world.clinic(addNote(t1.leads.assignedToAnotherUser, 'x'), as(salesperson));
    expect(other.code).toBe(4);
    expect(other.stderr.split('\n')[0]).toMatch(
      /^error: This lead is assigned to another salesperson\. \(HTTP 403\)$/,
    );
    const invalid = await world.clinic(addNote(t1.leads.unassigned, 'x', '--user-id', '9999'));
    expect(invalid.code).toBe(7);
    expect(invalid.stderr).toContain('user_id');
  });

  it('403 for a viewer writing', async () => {
    const viewer = world.sandbox.issueToken({ userId: 3 });
    const result = await world.clinic(
      ['form-templates', 'update', String(t1.formTemplates[0]), '--active'],
      as(viewer),
    );
    expect(result.code).toBe(4);
  });

  it('form-templates update, agent enable/disable/status, sales stock-deduct (409 when done already)', async () => {
    const template = await json([
      'form-templates',
      'update',
      String(t1.formTemplates[0]),
      '--name',
      'Intake 2026',
      '--inactive',
    ]);
    expect(template).toMatchObject({ name: 'Intake 2026', is_active: false });
    expect(Array.isArray(template.questions)).toBe(true);
    const conversation = String(t1.conversations[0]);
    await json(['conversations', 'agent', 'disable', conversation]);
    expect(JSON.stringify(await json(['conversations', 'agent', 'status', conversation]))).toContain('false');
    await json(['conversations', 'agent', 'enable', conversation]);
    expect(
      (await json(['sales', 'stock-deduct', String(t1.sales.notDeducted[0]), '--yes'])).stock_deducted,
    ).toBe(true);
    const again = await world.clinic(['sales', 'stock-deduct', String(t1.sales.alreadyDeducted), '--yes']);
    expect(again.code).toBe(6);
  });
});

describe('files', () => {
  it('send-voice uploads the file and prints the queued acknowledgement; the message then exists', async () => {
    const file = join(world.configDir, 'reply.ogg');
    await writeFile(file, Buffer.alloc(4096, 1));
    const conversation = String(t1.conversations[1]);
    const ack = await json(['conversations', 'send-voice', conversation, file]);
    expect(ack).toMatchObject({ status: 'queued', conversation_id: conversation });
    const messages = await json(['conversations', 'messages', conversation, '--all']);
    expect(messages.at(-1).media_type).toBe('audio');
  });

  it('ai-reports pdf saves a real PDF; a report not ready is an error and no file', async () => {
    const target = join(world.configDir, 'report.pdf');
    const saved = await world.clinic(['ai-reports', 'pdf', String(t1.aiReports.ready[0]), '-O', target]);
    expect(saved.code, saved.stderr).toBe(0);
    expect((await readFile(target)).subarray(0, 5).toString()).toBe('%PDF-');
    const missing = join(world.configDir, 'not-ready.pdf');
    const refused = await world.clinic(['ai-reports', 'pdf', String(t1.aiReports.notReady), '-O', missing]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('BAD_REQUEST');
    await expect(readFile(missing)).rejects.toThrow();
  });
});

it('clinic api still reaches anything', async () => {
  const result = await world.clinic(['api', '/v1/channels']);
  expect(result.code).toBe(0);
  expect(JSON.parse(result.stdout).data.length).toBe(t1.channels.length);
});
