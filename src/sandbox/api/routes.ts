// Every REST route the sandbox serves; each resource module declares its own routes.
import { accountRoutes } from './account.js';
import { customerRoutes } from './customers.js';
import type { Route } from './route.js';
import { userRoutes } from './users.js';

export const API_ROUTES: readonly Route[] = [...accountRoutes, ...customerRoutes, ...userRoutes];
