import { endpoints } from '@marquee/protocol';
import { defineHandler } from '../../protocol/handlers.js';
import { deleteCustomField, listCustomFields, saveCustomField } from './customFields.js';
import { pairingCandidates } from './pairing.js';
import {
  addDevice,
  deleteDevices,
  deviceDetail,
  disableDevices,
  enableDevices,
  listCommands,
  listDevices,
  sendCommand,
  statusHistory,
  updateDevice,
} from './service.js';

export const deviceHandlers = [
  defineHandler(endpoints.customFieldList, { handle: (_input, ctx) => listCustomFields(ctx) }),
  defineHandler(endpoints.customFieldSave, { handle: (input, ctx) => saveCustomField(input, ctx) }),
  defineHandler(endpoints.customFieldDelete, { handle: (input, ctx) => deleteCustomField(input, ctx) }),
  defineHandler(endpoints.deviceAdd, { handle: (input, ctx) => addDevice(input, ctx) }),
  defineHandler(endpoints.devicePairingCandidates, {
    handle: async (input, ctx) => ({ data: await pairingCandidates(ctx.db, input.number, ctx.now.getTime()) }),
  }),
  defineHandler(endpoints.deviceList, { handle: (input, ctx) => listDevices(input, ctx) }),
  defineHandler(endpoints.deviceDetail, { handle: (input, ctx) => deviceDetail(input, ctx) }),
  defineHandler(endpoints.deviceUpdate, { handle: (input, ctx) => updateDevice(input, ctx) }),
  defineHandler(endpoints.deviceDelete, { handle: (input, ctx) => deleteDevices(input, ctx) }),
  defineHandler(endpoints.deviceDisable, { handle: (input, ctx) => disableDevices(input, ctx) }),
  defineHandler(endpoints.deviceEnable, { handle: (input, ctx) => enableDevices(input, ctx) }),
  defineHandler(endpoints.deviceStatusHistory, { handle: (input, ctx) => statusHistory(input, ctx) }),
  defineHandler(endpoints.deviceSendCommand, { handle: (input, ctx) => sendCommand(input, ctx) }),
  defineHandler(endpoints.deviceCommands, { handle: (input, ctx) => listCommands(input, ctx) }),
];
