// GET /v1/account-transaction-types: the slug/label pairs bank account transactions accept as `type`.
import type { TransactionType } from '../data/clinic-types.js';
import { ok, type Route, tenantRoute } from './route.js';

export const TRANSACTION_TYPES: readonly TransactionType[] = [
  { slug: 'deposit', label: 'Deposit' },
  { slug: 'withdrawal', label: 'Withdrawal' },
  { slug: 'transfer', label: 'Transfer' },
  { slug: 'fee', label: 'Bank fee' },
  { slug: 'refund', label: 'Refund' },
];

export const transactionTypeRoutes: Route[] = [
  tenantRoute('GET', '/v1/account-transaction-types', 'account-transaction-types.read', () =>
    ok(TRANSACTION_TYPES.map((type) => ({ ...type }))),
  ),
];
