// POST /v1/sales/{id}/stock-deduct: takes a sale's products out of stock, once.
import { apiTimestamp } from '../data/time.js';
import { ApiError, codedError } from '../http/responses.js';
import { parsePositiveInteger } from './field-errors.js';
import { ok, type Route, type TenantContext } from './route.js';

export const saleRoutes: Route[] = [
  {
    method: 'POST',
    pattern: '/v1/sales/{id}/stock-deduct',
    tenantScoped: true,
    scope: 'sales:write',
    ability: 'sales.write',
    handle: deductStock,
  },
];

function deductStock(ctx: TenantContext) {
  const id = parsePositiveInteger(ctx.params.id ?? '');
  const sale = id === undefined ? undefined : ctx.store.sale(ctx.tenant.id, id);
  if (sale === undefined) throw new ApiError(codedError(404, 'RESOURCE_NOT_FOUND', 'Sale not found.'));
  if (sale.stock_deducted) {
    throw new ApiError(
      codedError(409, 'STOCK_ALREADY_DEDUCTED', 'Stock has already been deducted for this sale.', {
        data: { stock_deducted_at: sale.stock_deducted_at },
      }),
    );
  }
  const at = apiTimestamp(ctx.now());
  Object.assign(sale, { stock_deducted: true, stock_deducted_at: at, updated_at: at });
  return ok(structuredClone(sale));
}
