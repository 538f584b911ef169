import { defineNoun } from '../../cli/command.js';
import { refresh, status, token } from './status.js';

export default defineNoun({
  name: 'auth',
  summary: 'inspect and renew the sign-in: status, token, refresh',
  examples: ['clinic auth status', 'clinic auth token'],
  commands: [status, token, refresh],
});
