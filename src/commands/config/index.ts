// config: the verbs' declarations; each verb's code loads only when it runs.
import { defineCommand } from '../../cli/command.js';
import { noun } from '../../cli/declare.js';
import { option } from '../../cli/options.js';

const get = defineCommand({
  name: 'get',
  summary: 'print the effective value of a key (flag > env > profile > default)',
  args: [{ name: 'key', description: 'config key', completes: 'config-key' }],
  dryRun: 'read-only',
  examples: ['clinic config get base_url', 'clinic --profile sandbox config get tenant'],
  noJq: 'config get prints a value, not JSON',
  noRaw: true,
  load: async () => (await import('./show.js')).get,
});

const set = defineCommand({
  name: 'set',
  summary: 'set a key in the selected profile',
  args: [
    { name: 'key', description: 'config key, e.g. base_url or realtime.host', completes: 'config-key' },
    { name: 'value', description: 'the value' },
  ],
  examples: [
    'clinic config set base_url https://api.example.com/api',
    'clinic --profile prod config set tenant 12',
  ],
  noJq: 'config set prints no JSON',
  noRaw: true,
  load: async () => (await import('./edit.js')).set,
});

const unset = defineCommand({
  name: 'unset',
  summary: 'remove a key from the selected profile',
  args: [{ name: 'key', description: 'config key', completes: 'config-key' }],
  examples: ['clinic config unset tenant'],
  noJq: 'config unset prints no JSON',
  noRaw: true,
  load: async () => (await import('./edit.js')).unset,
});

const list = defineCommand({
  name: 'list',
  summary: 'list the keys of the selected profile with their effective values and sources',
  dryRun: 'read-only',
  examples: ['clinic config list', 'clinic --profile sandbox config list -o json'],
  noRaw: true,
  load: async () => (await import('./show.js')).list,
});

export const USE_PROFILE_OPTIONS = [
  option.flag(
    '--create',
    'make a new profile of that name (without it, only a profile in the file is taken)',
  ),
] as const;

const useProfile = defineCommand({
  name: 'use-profile',
  summary: 'make a profile the current one',
  description:
    'Make a profile of the config file the current one (current_profile), used when neither --profile nor\n' +
    'CLINIC_PROFILE names another. A name the file does not hold is refused (exit 2), so that a typo does not\n' +
    'leave you on an empty profile; --create makes a new one.',
  args: [{ name: 'name', description: 'profile name', completes: 'profile' }],
  options: USE_PROFILE_OPTIONS,
  examples: ['clinic config use-profile sandbox', 'clinic config use-profile staging --create'],
  noJq: 'config use-profile prints no JSON',
  noRaw: true,
  load: async () => (await import('./edit.js')).useProfile,
});

const profiles = defineCommand({
  name: 'profiles',
  summary: 'list the profiles in the config file',
  dryRun: 'read-only',
  examples: ['clinic config profiles'],
  noRaw: true,
  load: async () => (await import('./show.js')).profiles,
});

export default noun({
  name: 'config',
  category: 'Sign-in and settings',
  summary: 'read and change settings and profiles',
  examples: ['clinic config list', 'clinic config set tenant 2', 'clinic config use-profile sandbox'],
  commands: [get, set, unset, list, useProfile, profiles],
});
