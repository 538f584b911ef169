// PUT /v1/form-templates/{id}: changes a template's name, description or active flag (at least one of them).
import type { FormTemplateRecord } from '../data/clinic-types.js';
import { apiTimestamp } from '../data/time.js';
import { type FieldErrors, legacyError } from '../http/responses.js';
import { addFieldError, throwIfInvalid } from './field-errors.js';
import { isObject } from './json-input.js';
import { tenantRecordInPath } from './path-record.js';
import { ok, type Route, type TenantContext, tenantRoute } from './route.js';

export const formTemplateRoutes: Route[] = [
  tenantRoute('PUT', '/v1/form-templates/{id}', 'form-templates.write', updateFormTemplate),
];

type TemplateChanges = Partial<Pick<FormTemplateRecord, 'name' | 'description' | 'is_active'>>;

const FIELDS = ['name', 'description', 'is_active'] as const;
const LABELS = { name: 'name', description: 'description', is_active: 'is active' } as const;

async function updateFormTemplate(ctx: TenantContext) {
  const template = tenantRecordInPath(
    ctx,
    ctx.store.formTemplates,
    legacyError(404, 'Form template not found.'),
  );
  const changes = readChanges(await ctx.readJson());
  Object.assign(template, changes, { updated_at: apiTimestamp(ctx.now()) });
  return ok(formTemplateView(template));
}

function readChanges(body: unknown): TemplateChanges {
  const input = isObject(body) ? body : {};
  const errors: FieldErrors = {};
  const changes: TemplateChanges = {};
  const given = FIELDS.filter((field) => input[field] !== undefined);
  if (given.length === 0) {
    for (const field of FIELDS) {
      const others = FIELDS.filter((other) => other !== field).map((other) => LABELS[other]);
      addFieldError(
        errors,
        field,
        `The ${LABELS[field]} field is required when none of ${others.join(' / ')} are present.`,
      );
    }
  }
  if (input.name !== undefined) {
    const name = typeof input.name === 'string' ? input.name.trim() : input.name;
    if (name === null || name === '') addFieldError(errors, 'name', 'The name field is required.');
    else if (typeof name !== 'string') addFieldError(errors, 'name', 'The name field must be a string.');
    else if (name.length > 255)
      addFieldError(errors, 'name', 'The name field must not be greater than 255 characters.');
    else changes.name = name;
  }
  if (input.description !== undefined) {
    const description = input.description;
    if (typeof description !== 'string') {
      addFieldError(errors, 'description', 'The description field must be a string.');
    } else if (description.length > 1000) {
      addFieldError(errors, 'description', 'The description field must not be greater than 1000 characters.');
    } else {
      changes.description = description.trim();
    }
  }
  if (input.is_active !== undefined) {
    const active = readBoolean(input.is_active);
    if (active === undefined)
      addFieldError(errors, 'is_active', 'The is active field must be true or false.');
    else changes.is_active = active;
  }
  throwIfInvalid(errors);
  return changes;
}

/** Laravel's boolean rule: true, false, 1, 0, '1' and '0'. */
function readBoolean(value: unknown): boolean | undefined {
  if (value === true || value === 1 || value === '1') return true;
  if (value === false || value === 0 || value === '0') return false;
  return undefined;
}

function formTemplateView(template: FormTemplateRecord) {
  const { tenant_id: _tenant, questions, ...fields } = template;
  return { ...fields, questions: structuredClone(questions) };
}
