import { z } from 'zod';
import { DEVICE_API_PREFIX, MAX_SCREENSHOT_BYTES, SCREENSHOT_CONTENT_TYPES } from './http.js';

/**
 * One-key alarms (issue 30; docs/device-protocol.md 2.10): `POST /dapi/v1/alarms`, HTTP Basic.
 * A screen's alarm button (a kiosk, a bus stop) raises an event with an id the device chooses,
 * the time and, where the player can take one, a screenshot inline (base64). The player keeps
 * the event in its journal until the server's answer names its id, and sends it again unchanged
 * after a failure or a reconnect: the server stores an event once per (device, id).
 */
export const ALARMS_PATH = `${DEVICE_API_PREFIX}/alarms`;
/** An alarm's body: a screenshot of up to 5 MB, base64 (4/3 of it) and the rest. */
export const MAX_ALARM_BODY_BYTES = Math.ceil((MAX_SCREENSHOT_BYTES * 4) / 3) + 64 * 1024;
/** How far back an event may have been raised (older ones are rejected: an alarm that late helps nobody). */
export const ALARM_MAX_AGE_DAYS = 7;

export const alarmScreenshotSchema = z
  .object({
    contentType: z.enum(SCREENSHOT_CONTENT_TYPES),
    /** The image, base64 (at most 5 MB decoded). */
    data: z
      .string()
      .min(4)
      .max(Math.ceil((MAX_SCREENSHOT_BYTES * 4) / 3) + 4)
      .regex(/^[A-Za-z0-9+/]+={0,2}$/),
  })
  .strict();

export const alarmRaiseSchema = z
  .object({
    /** A UUID the device makes when the button is pressed; never renewed for a retry. */
    id: z.uuid(),
    /** When the button was pressed (ms since the epoch, the device's clock). */
    at: z.number().int().nonnegative(),
    /** What the screen showed, where the player can take a screenshot; null otherwise. */
    screenshot: alarmScreenshotSchema.nullable().default(null),
  })
  .strict();
export type AlarmRaise = z.input<typeof alarmRaiseSchema>;

/**
 * `duplicate`: the event was stored by an earlier send (a retry after a lost answer);
 * `rejected`: it will never be stored (raised more than 7 days ago or more than a day ahead).
 * In all three cases the player deletes the event from its journal.
 */
export const alarmAnswerSchema = z.object({
  id: z.string(),
  result: z.enum(['accepted', 'duplicate', 'rejected']),
});
export type AlarmAnswer = z.infer<typeof alarmAnswerSchema>;
