// sales: the declaration; its code loads only when it runs.
import { otherwiseWithApi } from '../../cli/assumed.js';
import { defineCommand } from '../../cli/command.js';
import { idArg, noun } from '../../cli/declare.js';

const stockDeduct = defineCommand({
  name: 'stock-deduct',
  summary: 'deduct from stock the product items of a sale (asks first)',
  description:
    'Deduct from stock, by hand, the product items of a sale (POST /v1/sales/{id}/stock-deduct). It changes\n' +
    'stock levels, so it asks for confirmation on a terminal; without one, pass --yes. A sale already\n' +
    'deducted is refused by the server (409, exit 6). The request body and the answer are not shown in the API\n' +
    'document (assumed: no body; the answer is printed as sent).' +
    otherwiseWithApi('clinic api -X POST /v1/sales/12/stock-deduct --input body.json'),
  args: idArg('sale'),
  confirm: { action: 'sales stock-deduct' },
  dryRun: 'honoured',
  examples: ['clinic sales stock-deduct 1', 'clinic sales stock-deduct 1 --yes -o json'],
  load: async () => (await import('./stock-deduct.js')).run,
});

export default noun({
  name: 'sales',
  summary: 'sales and their stock',
  category: 'Clinic data',
  commands: [stockDeduct],
});
