// One MSW server for the unit tests; each test adds its own handlers.
import { setupServer } from 'msw/node';

export const server = setupServer();
