import { contractHandlers } from './contractRoutes.js';
import { inventoryHandlers } from './inventoryRoutes.js';
import { orderHandlers } from './orderRoutes.js';
import { settlementHandlers } from './settlementRoutes.js';
import './stats.js';

/**
 * Selling airtime (issue 28; docs/ARCHITECTURE.md "Selling airtime"): slots, goods,
 * availability, price contracts, coupons and settings (inventoryRoutes), orders
 * (orderRoutes), settlement (settlementRoutes), contracts (contractRoutes).
 */
export const salesHandlers = [...inventoryHandlers, ...orderHandlers, ...settlementHandlers, ...contractHandlers];
