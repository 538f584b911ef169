// sales: the declaration; its code loads only when it runs.
import { defineCommand, defineNoun } from '../../cli/command.js';

const stockDeduct = defineCommand({
  name: 'stock-deduct',
  summary: 'deduct from stock the product items of a sale (asks first)',
  description:
    'Deduct from stock, by hand, the product items of a sale (POST /v1/sales/{id}/stock-deduct). It changes\n' +
    'stock levels, so it asks for confirmation on a terminal; without one, pass --yes. A sale already\n' +
    'deducted is refused by the server (409, exit 6). The request body and the answer are not shown in the API\n' +
    'document (assumed: no body; the answer is printed as sent).',
  args: [{ name: 'id', description: 'sale id' }],
  confirm: { action: 'stock-deduct' },
  examples: ['clinic sales stock-deduct 17', 'clinic sales stock-deduct 17 --yes -o json'],
  load: async () => (await import('./stock-deduct.js')).run,
});

export default defineNoun({
  name: 'sales',
  summary: 'sales and their stock',
  category: 'Clinic data',
  examples: ['clinic sales stock-deduct 17'],
  commands: [stockDeduct],
});
