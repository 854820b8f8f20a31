import type { Handler } from '../../protocol/handlers.js';

/** The contract endpoints of the sales module (issue 28). */
export const contractHandlers: Handler[] = [];
