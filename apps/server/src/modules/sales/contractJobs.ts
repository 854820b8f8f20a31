import type { AppServices } from '../../services.js';
import { dueContracts, type SyncOutcome, syncContract } from './contracts.js';
import { esignProvider } from './esign.js';

/**
 * The e-signature sync job of the airtime market's contracts (issue 28): every minute, each
 * e-signature contract due for a step (unsynchronized; synchronizing and not touched for a
 * minute; failed with tries left once its backoff passed) is claimed, the provider called
 * outside any transaction, and the outcome recorded (contracts.ts syncContract). Time is an
 * input (`now`), so a test runs the backoff on a simulated clock.
 */
export const CONTRACT_SYNC_JOB = 'sales-contract-sync';
export const CONTRACT_SYNC_CRON = '* * * * *';

export async function runContractSync(services: AppServices, now: Date): Promise<Record<SyncOutcome, number>> {
  const counts: Record<SyncOutcome, number> = { sent: 0, pending: 0, synchronized: 0, failed: 0, skipped: 0 };
  const provider = esignProvider(services.config.esign);
  if (!provider) return counts;
  const ids = await dueContracts(services.db, now, services.config.esign.maxAttempts);
  for (const id of ids) counts[await syncContract(services, id, now, { provider })]++;
  return counts;
}
