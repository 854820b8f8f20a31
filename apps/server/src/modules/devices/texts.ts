import type { LocalizedText } from '../../protocol/appError.js';

const text = (zh: string, en: string, ja: string): LocalizedText => ({ 'zh-CN': zh, 'en-US': en, ja });
/** The device module's messages in the three languages. */
export const DeviceText = {
  numberTaken: text(
    '该设备编号已被其他设备使用',
    'Another device already uses this device number',
    'このデバイス番号は他のデバイスで使用されています',
  ),
  notFound: text(
    '设备不存在或无权访问',
    'The device does not exist or is not accessible',
    'デバイスが存在しないか、アクセスできません',
  ),
};
