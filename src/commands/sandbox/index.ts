import { defineNoun } from '../../cli/command.js';
import start from './start.js';

export default defineNoun({
  name: 'sandbox',
  summary: 'a local Clinic API to try everything on',
  examples: ['clinic sandbox start', 'clinic sandbox start --port 0 --seed 7'],
  commands: [start],
});
