import { defineNoun } from '../../cli/command.js';
import create from './create.js';
import get from './get.js';
import list from './list.js';

export default defineNoun({
  name: 'customers',
  summary: 'customers (patients): list, get, create',
  examples: ['clinic customers list', 'clinic customers get 42'],
  commands: [list, get, create],
});
