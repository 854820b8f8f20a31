export * from './app.js';
export * from './client.js';
export * from './clock.js';
export * from './db.js';
export * from './factories.js';
export * from './letters.js';
