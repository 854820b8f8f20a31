import { endpoints } from '@marquee/protocol';
import { defineHandler } from '../../protocol/handlers.js';
import { currentWeather } from './service.js';

export const weatherHandlers = [
  defineHandler(endpoints.weatherCurrent, { handle: (input, ctx) => currentWeather(input, ctx) }),
];
