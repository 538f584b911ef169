// Who a customer is, in a few words for `erasure create`'s question: as the server shows them, masked or not.
import { valueAt } from '../../cli/output/fields.js';
import { recordMarks } from '../../cli/output/marks.js';
import { joinText, textOf } from '../../cli/output/text.js';

/**
 * `Ada Lovelace, ada@example.com, +44 7700 900123, born 1815-12-10` and the record's marks (`masked`, `read-only:
 * CUSTOMER_ERASED`) after a `;`. Values are the server's, unmasked by nothing; the question they go into is sanitized.
 */
export function customerIdentity(customer: unknown): string {
  const born = textOf(valueAt(customer, 'date_of_birth'));
  const facts = [
    joinText([valueAt(customer, 'first_name'), valueAt(customer, 'last_name')]) || 'no name',
    textOf(valueAt(customer, 'email')),
    textOf(valueAt(customer, 'phone_number')),
    born && `born ${born}`,
  ].filter((fact) => fact !== '');
  const marks = recordMarks(customer);
  return `${facts.join(', ')}${marks ? `; ${marks}` : ''}`;
}
