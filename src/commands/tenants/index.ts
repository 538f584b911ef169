import { defineNoun } from '../../cli/command.js';
import list from './list.js';
import use from './use.js';

export default defineNoun({
  name: 'tenants',
  summary: 'list tenants and choose the default one',
  examples: ['clinic tenants list', 'clinic tenants use northside'],
  commands: [list, use],
});
