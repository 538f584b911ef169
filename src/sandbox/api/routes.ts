// Every REST route the sandbox serves; each resource module declares its own routes.
import { accountRoutes } from './account.js';
import { aiReportRoutes } from './ai-reports.js';
import { announcementRoutes } from './announcements.js';
import { appointmentRoutes } from './appointments.js';
import { channelRoutes } from './channels.js';
import { conversationRoutes } from './conversations.js';
import { customerRoutes } from './customers.js';
import { erasureRoutes } from './erasure-requests.js';
import { formTemplateRoutes } from './form-templates.js';
import { leadNoteRoutes } from './lead-notes.js';
import type { Route } from './route.js';
import { saleRoutes } from './sales.js';
import { transactionTypeRoutes } from './transaction-types.js';
import { userRoutes } from './users.js';
import { voiceMessageRoutes } from './voice-messages.js';

export const API_ROUTES: readonly Route[] = [
  ...accountRoutes,
  ...customerRoutes,
  ...userRoutes,
  ...appointmentRoutes,
  ...channelRoutes,
  ...transactionTypeRoutes,
  ...leadNoteRoutes,
  ...conversationRoutes,
  ...voiceMessageRoutes,
  ...formTemplateRoutes,
  ...announcementRoutes,
  ...aiReportRoutes,
  ...saleRoutes,
  ...erasureRoutes,
];
