import type { Handler } from '../../protocol/handlers.js';

/** The settlement endpoints of the sales module (issue 28). */
export const settlementHandlers: Handler[] = [];
