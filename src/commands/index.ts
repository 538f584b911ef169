// The top-level commands and nouns; each noun declares its own verbs.
import type { CommandDef, NounDef } from '../cli/command.js';
import account from './account/index.js';
import api from './api/index.js';
import auth, { login, logout } from './auth/index.js';
import config from './config/index.js';
import customers from './customers/index.js';
import sandbox from './sandbox/index.js';
import tenants from './tenants/index.js';

export const commands: (CommandDef | NounDef)[] = [
  login,
  logout,
  auth,
  account,
  tenants,
  customers,
  config,
  api,
  sandbox,
];
