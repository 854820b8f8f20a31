import { endpoints } from '@marquee/protocol';
import { defineHandler } from '../../protocol/handlers.js';
import { addDevice, listCommands, listDevices, sendCommand } from './service.js';

export const deviceHandlers = [
  defineHandler(endpoints.deviceAdd, { handle: (input, ctx) => addDevice(input, ctx) }),
  defineHandler(endpoints.deviceList, { handle: (input, ctx) => listDevices(input, ctx) }),
  defineHandler(endpoints.deviceSendCommand, { handle: (input, ctx) => sendCommand(input, ctx) }),
  defineHandler(endpoints.deviceCommands, { handle: (input, ctx) => listCommands(input, ctx) }),
];
