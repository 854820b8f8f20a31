/**
 * The ledger's accounts (issue 26): ids, ensure* and balances live in ./repository.ts (a
 * repository ranks beneath walletScope.ts, which uses them: test/layering.test.ts); this file
 * keeps the name every caller imports.
 */
export * from './repository.js';
