// Who a customer is, in a few words for the erasure questions (`create`, `retry`): as the server shows them, masked
// or not.
import type { Context } from '../../cli/context.js';
import { valueAt } from '../../cli/output/fields.js';
import { recordMarks } from '../../cli/output/marks.js';
import { joinText, textOf } from '../../cli/output/text.js';
import { getCustomer } from '../../core/api/customers.js';
import { ApiError, CancelledError } from '../../core/errors.js';

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

/**
 * `customer 5 (Ada Lovelace, …)`, read from the server only when a question is asked (on a terminal: `verb` has
 * refused before any request where it cannot be). A customer the user may not read is asked about all the same,
 * saying so; with `gone` (a request run again), one the server no longer has is too. Else a missing customer ends the
 * command (exit 5), nothing sent.
 */
export async function whoIs(ctx: Context, id: number, { gone = false } = {}): Promise<string> {
  try {
    // For a request run again the read is a courtesy: one retry at most, not a question held back for seconds.
    const client = await ctx.http(gone ? { maxRetries: 1 } : undefined);
    return `customer ${id} (${customerIdentity(await getCustomer(client, id))})`;
  } catch (error) {
    // Requesting an erasure may be allowed to a user who cannot read customers.
    if (error instanceof ApiError && error.status === 403)
      return `customer ${id} (who it is cannot be shown: reading customers is forbidden to you)`;
    if (gone && error instanceof ApiError && (error.status === 404 || error.status === 410))
      return `customer ${id} (the server no longer has this customer's record)`;
    // A request run again is the server's to name: its customer unread is said so, never the end of the command.
    if (gone && !(error instanceof CancelledError))
      return `customer ${id} (who it is could not be read: ${error instanceof Error ? error.message : String(error)})`;
    throw error;
  }
}

/** The customer an erasure request names, when it is an id that can be asked for (a server may send anything). */
export const customerIdOf = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : undefined;
