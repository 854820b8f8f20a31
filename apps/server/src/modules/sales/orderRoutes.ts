import type { Handler } from '../../protocol/handlers.js';

/** The order endpoints of the sales module (issue 28). */
export const orderHandlers: Handler[] = [];
