import type { Handler } from '../../protocol/handlers.js';

/** The inventory endpoints of the sales module (issue 28). */
export const inventoryHandlers: Handler[] = [];
