/**
 * The messages between the demo fleet supervisor (src/demo/fleet.ts, in the server process)
 * and its child process of headless players (player/fleet.ts), over Node's IPC channel.
 */

/** One player of the fleet: its key (the credentials file's name) and the number it reports at pairing. */
export interface FleetPlayerSpec {
  key: string;
  number: string;
}

/** Parent -> child: the fleet to run (the first message). */
export interface FleetStart {
  type: 'start';
  /** The server's base URL (http://127.0.0.1:<port>). */
  server: string;
  /** Where each player keeps its credentials (`<key>.json`). */
  stateDir: string;
  players: FleetPlayerSpec[];
  /** How often each player uploads its plays (seconds). */
  uploadEverySec?: number;
}

/** Child -> parent. */
export type FleetEvent =
  /** A player without credentials asks to be added: the code it shows. */
  | { type: 'pairing'; key: string; number: string; code: string }
  /** A player collected its credentials (kept in its file). */
  | { type: 'paired'; key: string; deviceId: string }
  /** A player is connected to the broker. */
  | { type: 'online'; key: string; deviceId: string }
  /** A player switched to a complete manifest. */
  | { type: 'manifest'; key: string; deviceId: string; version: string; items: number }
  /** A player's upload stored plays. */
  | { type: 'plays'; key: string; deviceId: string; accepted: number }
  /** The server no longer knows a player's device (deleted): it stays stopped. */
  | { type: 'removed'; key: string }
  | { type: 'error'; key: string; message: string };
