// In-memory store of one sandbox: tenants, users, memberships, customers and leads, with the lookups handlers need.
import type {
  CustomerRecord,
  LeadRecord,
  MembershipRecord,
  Role,
  TenantRecord,
  UserRecord,
} from './types.js';

export interface SeedData {
  tenants: TenantRecord[];
  users: UserRecord[];
  memberships: MembershipRecord[];
  customers: CustomerRecord[];
  leads: LeadRecord[];
}

export type NewCustomer = Omit<CustomerRecord, 'id'>;

export class SandboxStore {
  readonly tenants: readonly TenantRecord[];
  readonly users: readonly UserRecord[];
  readonly memberships: readonly MembershipRecord[];
  readonly customers: CustomerRecord[];
  readonly leads: LeadRecord[];
  private nextCustomerId: number;

  constructor(data: SeedData) {
    this.tenants = data.tenants;
    this.users = data.users;
    this.memberships = data.memberships;
    this.customers = data.customers;
    this.leads = data.leads;
    // Ids stay globally unique and increasing, across tenants, like one database table.
    this.nextCustomerId = Math.max(0, ...data.customers.map((customer) => customer.id)) + 1;
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

  customersOf(tenantId: number): CustomerRecord[] {
    return this.customers.filter((customer) => customer.tenant_id === tenantId);
  }

  /** A customer of this tenant only: another tenant's id is as missing as an unknown one. */
  customer(tenantId: number, id: number): CustomerRecord | undefined {
    return this.customers.find((customer) => customer.id === id && customer.tenant_id === tenantId);
  }

  addCustomer(fields: NewCustomer): CustomerRecord {
    const customer: CustomerRecord = { id: this.nextCustomerId++, ...fields };
    this.customers.push(customer);
    return customer;
  }
}
