// POST /v1/sales/{id}/stock-deduct: takes a sale's products out of stock, once.
import { apiTimestamp } from '../data/time.js';
import { ApiError, codedError, resourceNotFound } from '../http/responses.js';
import { tenantRecordInPath } from './path-record.js';
import { ok, type Route, type TenantContext, tenantRoute } from './route.js';

export const saleRoutes: Route[] = [
  tenantRoute('POST', '/v1/sales/{id}/stock-deduct', 'sales.write', deductStock),
];

function deductStock(ctx: TenantContext) {
  const sale = tenantRecordInPath(ctx, ctx.store.sales, resourceNotFound('Sale not found.'));
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
