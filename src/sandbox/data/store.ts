// In-memory store of one sandbox: every record the REST handlers serve, with the lookups and changes they need.
import { ChatLogs, type ChatEventListener } from './chat-logs.js';
import type { ChannelRecord, ChatLogRecord, ConversationRecord } from './chat-types.js';
import type {
  AiReportRecord,
  AnnouncementRecord,
  AppointmentRecord,
  FormTemplateRecord,
  SaleRecord,
} from './clinic-types.js';
import { ErasureRequests } from './erasure-requests.js';
import type { ErasureRequestRecord } from './erasure-types.js';
import type { SandboxFixtures } from './fixtures.js';
import { apiTimestamp } from './time.js';
import type {
  CustomerRecord,
  LeadNoteRecord,
  LeadRecord,
  MembershipRecord,
  Role,
  TenantRecord,
  UserRecord,
} from './types.js';
import { highestId } from './ids.js';

export interface SeedData {
  tenants: TenantRecord[];
  users: UserRecord[];
  memberships: MembershipRecord[];
  /** Patients and lead-stage people alike (`is_lead_stage`). */
  customers: CustomerRecord[];
  leads: LeadRecord[];
  channels: ChannelRecord[];
  conversations: ConversationRecord[];
  chatLogs: ChatLogRecord[];
  appointments: AppointmentRecord[];
  formTemplates: FormTemplateRecord[];
  announcements: AnnouncementRecord[];
  aiReports: AiReportRecord[];
  sales: SaleRecord[];
  erasureRequests: ErasureRequestRecord[];
  fixtures: SandboxFixtures;
}

export interface StoreSettings {
  /** Seconds between two steps of a live erasure request; 0 = frozen. */
  erasureStepSeconds: number;
}

export type NewCustomer = Omit<CustomerRecord, 'id'>;
export type NewLeadNote = Omit<LeadNoteRecord, 'id'>;

export interface Owned {
  id: number;
  tenant_id: number;
}

export class SandboxStore {
  readonly tenants: readonly TenantRecord[];
  readonly users: readonly UserRecord[];
  readonly memberships: readonly MembershipRecord[];
  readonly customers: CustomerRecord[];
  readonly leads: LeadRecord[];
  readonly leadNotes: LeadNoteRecord[] = [];
  readonly channels: readonly ChannelRecord[];
  readonly conversations: readonly ConversationRecord[];
  readonly appointments: readonly AppointmentRecord[];
  readonly formTemplates: readonly FormTemplateRecord[];
  readonly announcements: readonly AnnouncementRecord[];
  readonly aiReports: readonly AiReportRecord[];
  readonly sales: readonly SaleRecord[];
  readonly chat: ChatLogs;
  readonly erasures: ErasureRequests;
  /** Ids of the records tests and demos can count on. */
  readonly fixtures: SandboxFixtures;
  private nextCustomerId: number;

  constructor(data: SeedData, settings: StoreSettings) {
    this.tenants = data.tenants;
    this.users = data.users;
    this.memberships = data.memberships;
    this.customers = data.customers;
    this.leads = data.leads;
    this.channels = data.channels;
    this.conversations = data.conversations;
    this.appointments = data.appointments;
    this.formTemplates = data.formTemplates;
    this.announcements = data.announcements;
    this.aiReports = data.aiReports;
    this.sales = data.sales;
    this.fixtures = data.fixtures;
    this.chat = new ChatLogs(data.chatLogs);
    this.erasures = new ErasureRequests(data.erasureRequests, {
      stepMs: Math.round(settings.erasureStepSeconds * 1000),
      onCompleted: (request, atMs) => {
        if (request.customer_id !== null) this.erasePerson(request.tenant_id, request.customer_id, atMs);
      },
    });
    // Ids stay globally unique and increasing, across tenants, like one database table.
    this.nextCustomerId = highestId(data.customers) + 1;
  }

  tenant(id: number): TenantRecord | undefined {
    return this.tenants.find((tenant) => tenant.id === id);
  }

  user(id: number): UserRecord | undefined {
    return this.users.find((user) => user.id === id);
  }

  roleOf(userId: number, tenantId: number): Role | undefined {
    return this.memberships.find((m) => m.userId === userId && m.tenantId === tenantId)?.role;
  }

  tenantsOf(userId: number): TenantRecord[] {
    return this.tenants.filter((tenant) => this.roleOf(userId, tenant.id) !== undefined);
  }

  /**
   * The tenant's patients (people past the lead stage), in id order. Indexed once: a record's tenant and stage never
   * change, and new ones are appended (a tenant of 100,000 patients must not be filtered out of all on every page).
   */
  customersOf(tenantId: number): readonly CustomerRecord[] {
    if (this.patientsByTenant === undefined) {
      this.patientsByTenant = new Map();
      for (const customer of this.customers) this.indexPatient(customer);
      for (const list of this.patientsByTenant.values()) list.sort((a, b) => a.id - b.id);
    }
    return this.patientsByTenant.get(tenantId) ?? [];
  }

  private patientsByTenant?: Map<number, CustomerRecord[]>;

  private indexPatient(customer: CustomerRecord): void {
    if (customer.is_lead_stage || this.patientsByTenant === undefined) return;
    const list = this.patientsByTenant.get(customer.tenant_id);
    if (list) list.push(customer);
    else this.patientsByTenant.set(customer.tenant_id, [customer]);
  }

  /** A patient of this tenant. */
  customer(tenantId: number, id: number): CustomerRecord | undefined {
    const person = this.person(tenantId, id);
    return person?.is_lead_stage === false ? person : undefined;
  }

  /** A patient or a lead-stage person of this tenant. */
  person(tenantId: number, id: number): CustomerRecord | undefined {
    return this.owned(this.customers, tenantId, id);
  }

  addCustomer(fields: NewCustomer): CustomerRecord {
    const customer: CustomerRecord = { id: this.nextCustomerId++, ...fields };
    this.customers.push(customer);
    this.indexPatient(customer);
    return customer;
  }

  /** Wipes the person's data but keeps the row (and its lead link) for bookkeeping. */
  erasePerson(tenantId: number, id: number, atMs: number): void {
    const person = this.person(tenantId, id);
    if (person === undefined) return;
    Object.assign(person, {
      first_name: null,
      last_name: null,
      email: null,
      phone_number: null,
      date_of_birth: null,
      gender: null,
      notes: null,
      assigned_user_id: null,
      is_erased: true,
      updated_at: apiTimestamp(atMs),
    });
  }

  addLeadNote(fields: NewLeadNote): LeadNoteRecord {
    const note: LeadNoteRecord = { id: this.leadNotes.length + 1, ...fields };
    this.leadNotes.push(note);
    return note;
  }

  conversation(tenantId: number, id: number): ConversationRecord | undefined {
    return this.owned(this.conversations, tenantId, id);
  }

  /** A record of this tenant only, from one of the tables: another tenant's id is as missing as an unknown one. */
  owned<T extends Owned>(records: readonly T[], tenantId: number, id: number): T | undefined {
    return records.find((record) => record.id === id && record.tenant_id === tenantId);
  }

  ofTenant<T extends Owned>(records: readonly T[], tenantId: number): T[] {
    return records.filter((record) => record.tenant_id === tenantId);
  }

  /** Applies the changes that time alone brings (erasure requests moving on); called before each request. */
  catchUp(nowMs: number): void {
    this.erasures.catchUp(nowMs);
  }

  /** Every chat log created or deleted and every conversation read, as it happens. */
  onChatEvent(listener: ChatEventListener): () => void {
    return this.chat.onEvent(listener);
  }
}
