import { describe, expect, it } from 'vitest';
import { brokerUrlFor } from '../src/logic/brokers';

describe('the broker the browser player connects to', () => {
  const urls = ['wss://a.example/mqtt', 'mqtt://a.example:18830', 'ws://10.0.0.6:8080/mqtt'];

  it('takes the first WebSocket URL, then the next one after each failed attempt, round and round', () => {
    expect([0, 1, 2, 3].map((attempt) => brokerUrlFor(urls, attempt, 'ws://here/mqtt'))).toEqual([
      'wss://a.example/mqtt',
      'ws://10.0.0.6:8080/mqtt',
      'wss://a.example/mqtt',
      'ws://10.0.0.6:8080/mqtt',
    ]);
  });

  it('falls back to the server it was loaded from when the credentials name no WebSocket broker', () => {
    expect(brokerUrlFor(['mqtt://a.example:18830'], 0, 'ws://here/mqtt')).toBe('ws://here/mqtt');
  });
});
