export * from './document.js';
export * from './render/index.js';
