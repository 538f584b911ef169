// POST /v1/leads/{id}/notes: the LeadNote shape, validation, CUSTOMER_ERASED, another rep's lead (plain 403) and 404s.
import { describe, expect, it } from 'vitest';
import { type RunningSandbox, type TenantFixtures } from '../../src/sandbox/index.js';
import { call, sandboxForFile } from './client.js';

let sandbox: RunningSandbox;
let leads: TenantFixtures['leads'];
let salesperson: string;
sandboxForFile((running) => {
  sandbox = running;
  leads = (sandbox.fixtures.tenants[1] as TenantFixtures).leads;
  salesperson = sandbox.issueToken({ userId: sandbox.fixtures.salespersonUserId });
});

const addNote = (leadId: number, json: unknown, options = {}) =>
  call(sandbox, `/v1/leads/${leadId}/notes`, { json, ...options });

describe('adding a note', () => {
  it('answers 201 with a LeadNote written by the caller', async () => {
    const result = await addNote(leads.assignedToSalesperson, { content: '  Called back, wants a quote. ' });
    expect(result.status).toBe(201);
    expect(result.body).toEqual({
      success: true,
      data: {
        id: expect.any(Number),
        record_state: { is_read_only: false, reason_code: null },
        content: 'Called back, wants a quote.',
        user_id: 1,
        origin: 'panel',
        source_lead_id: leads.assignedToSalesperson,
        created_at: expect.stringMatching(/Z$/),
        updated_at: expect.any(String),
        deleted_at: null,
        author: { id: 1, name: 'Dana Admin', avatar_url: expect.any(String) },
      },
    });
  });

  it('writes on behalf of another member of the tenant with user_id', async () => {
    const result = await addNote(leads.unassigned, { content: 'Left a voicemail.', user_id: 3 });
    expect(result.status).toBe(201);
    expect(result.body.data).toMatchObject({ user_id: 3, author: { id: 3, name: 'Vera Viewer' } });
  });

  it('lets the salesperson write on their own and unassigned leads', async () => {
    for (const lead of [leads.assignedToSalesperson, leads.unassigned]) {
      const result = await addNote(lead, { content: 'Mine.' }, { token: salesperson });
      expect(result.status).toBe(201);
      expect(result.body.data.user_id).toBe(2);
    }
  });
});

describe('refusals', () => {
  it("answers a plain 403 (the document's 403 shape, no error_code) to a salesperson on another user's lead", async () => {
    // Valid, invalid and missing bodies alike: the refusal comes before validation, as Laravel authorizes first.
    for (const json of [{ content: 'Not mine.' }, { content: '' }, { content: 'x', user_id: 'abc' }]) {
      const result = await addNote(leads.assignedToAnotherUser, json, { token: salesperson });
      expect(result.status).toBe(403);
      expect(result.body).toEqual({ message: 'This lead is assigned to another salesperson.' });
    }
    // The admin may.
    expect((await addNote(leads.assignedToAnotherUser, { content: 'Fine.' })).status).toBe(201);
  });

  it("answers the coded CUSTOMER_ERASED (422) on an erased person's lead, for everyone", async () => {
    for (const token of [sandbox.info.token, salesperson]) {
      const result = await addNote(leads.customerErased, { content: 'Hello?' }, { token });
      expect(result.status).toBe(422);
      expect(result.body).toMatchObject({ success: false, error_code: 'CUSTOMER_ERASED', errors: null });
    }
  });

  it('answers 404 RESOURCE_NOT_FOUND for unknown and foreign leads', async () => {
    const foreign = (sandbox.fixtures.tenants[2] as TenantFixtures).leads.unassigned;
    for (const id of ['99999', 'abc', String(foreign)]) {
      const result = await call(sandbox, `/v1/leads/${id}/notes`, { json: { content: 'x' } });
      expect(result.status).toBe(404);
      expect(result.body).toMatchObject({ error_code: 'RESOURCE_NOT_FOUND', message: 'Lead not found.' });
    }
    expect((await addNote(foreign, { content: 'x' }, { tenant: 2 })).status).toBe(201);
  });

  it('validates content and user_id (422)', async () => {
    const cases: [unknown, Record<string, string[]>][] = [
      [{}, { content: ['The content field is required.'] }],
      [{ content: '   ' }, { content: ['The content field is required.'] }],
      [{ content: 12 }, { content: ['The content field must be a string.'] }],
      [{ content: 'ok', user_id: 'two' }, { user_id: ['The user id field must be an integer.'] }],
      [{ content: 'ok', user_id: 4 }, { user_id: ['The selected user id is invalid.'] }],
      [{ content: 'ok', user_id: 99 }, { user_id: ['The selected user id is invalid.'] }],
      ['just text', { content: ['The content field is required.'] }],
    ];
    for (const [json, errors] of cases) {
      const result = await addNote(leads.unassigned, json);
      expect(result.status, JSON.stringify(json)).toBe(422);
      expect(result.body.errors).toEqual(errors);
    }
  });

  it('needs leads:write and a role that writes', async () => {
    const readOnly = sandbox.issueToken({ userId: 1, scopes: ['customers:read'] });
    const scoped = await addNote(leads.unassigned, { content: 'x' }, { token: readOnly });
    expect(scoped).toMatchObject({ status: 403, body: { message: 'Invalid scope(s) provided.' } });
    const viewer = await addNote(
      leads.unassigned,
      { content: 'x' },
      { token: sandbox.issueToken({ userId: 3 }) },
    );
    expect(viewer).toMatchObject({ status: 403, body: { message: 'This action is unauthorized.' } });
  });
});
