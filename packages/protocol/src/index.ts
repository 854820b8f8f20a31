export * from './device/index.js';
export * from './endpoints.js';
export * from './errors.js';
export * from './permissions.js';
export * from './refTypes.js';
export * from './routes.js';
export * from './signing.js';
export * from './validation.js';
