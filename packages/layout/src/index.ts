export * from './factory.js';
export * from './messages.js';
export * from './render/index.js';
export * from './rules.js';
export * from './schema.js';
export * from './upgrade.js';
