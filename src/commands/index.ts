// The top-level commands and nouns, in help order; each noun declares its own verbs and its help category.
import type { CommandDef, NounDef } from '../cli/command.js';
import account from './account/index.js';
import aiReports from './ai-reports/index.js';
import announcements from './announcements/index.js';
import api from './api/index.js';
import appointments from './appointments/index.js';
import auth, { login, logout } from './auth/index.js';
import channels from './channels/index.js';
import chat from './chat/index.js';
import completion from './completion/index.js';
import config from './config/index.js';
import conversations from './conversations/index.js';
import customers from './customers/index.js';
import doctor from './doctor/index.js';
import erasure from './erasure/index.js';
import formTemplates from './form-templates/index.js';
import leads from './leads/index.js';
import sales from './sales/index.js';
import sandbox from './sandbox/index.js';
import tenants from './tenants/index.js';
import transactionTypes from './transaction-types/index.js';
import users from './users/index.js';

export const commands: (CommandDef | NounDef)[] = [
  login,
  logout,
  auth,
  account,
  tenants,
  config,
  customers,
  users,
  appointments,
  leads,
  conversations,
  chat,
  channels,
  formTemplates,
  announcements,
  aiReports,
  sales,
  transactionTypes,
  erasure,
  api,
  doctor,
  completion,
  sandbox,
];
