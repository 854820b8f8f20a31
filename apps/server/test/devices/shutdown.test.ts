import { describe, expect, it } from 'vitest';
import type { HeadlessPlayer } from '../../src/player/player.js';
import { activatePlayer } from './helpers.js';
import { listeningApp } from './suite.js';

/**
 * The server stops with players connected to its embedded broker over WebSocket (/mqtt on
 * its own port): the device channel closes before the HTTP server waits for its connections.
 * When it closed after, one connected player held the stop until the shutdown timeout.
 */
describe('stopping the server with a player connected over WebSocket', () => {
  it('closes the player connection and stops', async () => {
    const { t, server } = await listeningApp('pglite', {});
    const { client } = await t.tenant();
    let player: HeadlessPlayer | undefined;
    try {
      player = await activatePlayer(server, client, { name: 'Connected at the stop' });
      expect(player.client?.connected).toBe(true);
      await t.close();
      expect(player.client?.connected).toBe(false);
    } finally {
      player?.kill();
    }
  }, 30_000);
});
