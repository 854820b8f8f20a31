export * from './accounts.js';
export * from './meta.js';
export * from './notices.js';
export * from './oplog.js';
export * from './operationLogs.js';
export * from './org.js';
export * from './sessions.js';
export * from './tenancy.js';
