// The top-level commands and nouns; each noun lists its own verbs.
import type { CommandDef, NounDef } from '../cli/command.js';
import account from './account.js';
import api from './api.js';
import auth from './auth/index.js';
import login from './auth/login.js';
import logout from './auth/logout.js';
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
