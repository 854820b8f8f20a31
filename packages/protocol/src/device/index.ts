/** The device protocol, version 1: what players speak (docs/device-protocol.md). */

export * from './alarms.js';
export * from './http.js';
export * from './messages.js';
export * from './offlinePackage.js';
export * from './schedule.js';
export * from './topics.js';
