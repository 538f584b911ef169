import { defineNoun } from '../../cli/command.js';
import { set, unset, useProfile } from './edit.js';
import { get, list, profiles } from './show.js';

export default defineNoun({
  name: 'config',
  summary: 'read and change settings and profiles',
  examples: ['clinic config list', 'clinic config set tenant 2', 'clinic config use-profile sandbox'],
  commands: [get, set, unset, list, useProfile, profiles],
});
