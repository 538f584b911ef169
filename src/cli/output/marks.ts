// Visible marks for records the viewer cannot fully see or change (masked identity, read-only state).
import { valueAt } from './fields.js';

export function recordMarks(record: unknown): string {
  const marks: string[] = [];
  if (valueAt(record, 'is_masked') === true) marks.push('masked');
  if (valueAt(record, 'record_state.is_read_only') === true) {
    const reason = valueAt(record, 'record_state.reason_code');
    marks.push(typeof reason === 'string' ? `read-only: ${reason}` : 'read-only');
  }
  return marks.join(', ');
}
