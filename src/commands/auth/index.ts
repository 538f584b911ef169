import { defineNoun } from '../../cli/command.js';
import { status, token } from './status.js';

export default defineNoun({
  name: 'auth',
  summary: 'inspect the sign-in: status, token',
  examples: ['clinic auth status', 'clinic auth token'],
  commands: [status, token],
});
